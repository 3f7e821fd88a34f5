/**
 * The registry of the policies the cluster model compares: the plug-in list (pluginList.ts),
 * registered when this module is first imported, in its order. The engine, the Monte Carlo, the
 * CLI (JSON, table and --help), the CSV export, the link's validator and the UI's picker, results
 * and metrics panels iterate the registry instead of naming the policies, so the list's order is
 * the order of every column, card and JSON key.
 *
 * A policy's key is a public contract: it names the policy's metrics in the CLI's JSON, the CSV's
 * columns (through csvPrefix) and the views' test ids; `synchronous` and `ftHsdp` never change.
 */
import type { CommonRecording } from "../types.ts";
import { PLUGINS } from "./pluginList.ts";
import type { Policy, PolicyRun } from "./policy.ts";
import { DEFAULT_POLICIES, type PerPolicy, type PolicyKey, registerPolicyKey } from "./policyKeys.ts";

export type { CommonRecording, Policy, PolicyKey, PolicyRun };

const registry = new Map<PolicyKey, Policy>();

/**
 * Adds a policy: scenarios may then select it by key, and the engine, the Monte Carlo, the CLI,
 * the CSV, the Perfetto export and the page's views iterate it like the listed ones. A key already
 * taken is refused by name. Returns a function that removes the policy again. The shipped app
 * registers only the plug-in list (a new strategy is a line there, not a call here); tests use
 * this to add and remove a double within one file.
 */
export function registerPolicy(p: Policy): () => void {
  const unregisterKey = registerPolicyKey(p.key);
  registry.set(p.key, p);
  return () => {
    registry.delete(p.key);
    unregisterKey();
  };
}

for (const p of PLUGINS) registerPolicy(p);

/** Every registered policy, in display order. */
export function registeredPolicies(): readonly Policy[] {
  return [...registry.values()];
}

/** The policy with this key; an unknown key is refused by name. */
export function policyOf(key: PolicyKey): Policy {
  const p = registry.get(key);
  if (!p) throw new Error(`no policy "${key}" is registered`);
  return p;
}

/**
 * The policies every scenario ran before version 3 (its default selection), in display order.
 * Everything in src/sim, the CLI, the CSV and the page iterates the scenario's own selection
 * (selectedPolicies); this is for what is about the defaults themselves.
 */
export const POLICIES: readonly Policy[] = DEFAULT_POLICIES.map(policyOf);

/** The policies a scenario selects, in its display order (docs/model.md §4 "Which strategies run"). */
export function selectedPolicies(s: { readonly policies: readonly PolicyKey[] }): readonly Policy[] {
  return s.policies.map(policyOf);
}

/**
 * An object with one value per policy of `policies` (the default selection unless given), keys
 * in that order (so JSON output keeps its order). For building results once per run or summary,
 * not per failure.
 */
export function byPolicy<T>(f: (p: Policy) => T, policies: readonly Policy[] = POLICIES): PerPolicy<T> {
  const out: PerPolicy<T> = {};
  for (const p of policies) out[p.key] = f(p);
  return out;
}
