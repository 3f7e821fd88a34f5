/**
 * The policies' keys (docs/model.md §4), apart from the registry (index.ts) so that the scenario's
 * validator can check them without loading every policy's run function. A key is a public
 * contract: it names the policy in scenarios, links, the CLI's JSON and the CSV.
 *
 * The keys are the plug-in list's (pluginList.ts): the registry adds each listed policy's key
 * here when it is first imported, so in any realm that can run a policy the validator knows
 * exactly the policies that realm can run.
 */

/** A policy's key: a string, one of the plug-in list's (isPolicyKey checks). */
export type PolicyKey = string;

/** What every scenario ran before version 3, and still runs when it names no policies. */
export const DEFAULT_POLICIES: readonly PolicyKey[] = ["synchronous", "ftHsdp"];

/** One value per selected policy, under its key: a policy the scenario does not select has none. */
export type PerPolicy<T> = Partial<Record<PolicyKey, T>>;

/** At most this many policies side by side. */
export const MAX_POLICIES = 5;

/** The registered keys, in the plug-in list's order (then any a test registered). */
const registered: PolicyKey[] = [];

/**
 * Every key a scenario may select now, in display order. Refuses by name to answer in a realm
 * where no policy is registered (an entry point that reaches the validator but not the registry),
 * rather than refuse every scenario.
 */
export function policyKeys(): readonly PolicyKey[] {
  if (registered.length === 0)
    throw new Error(
      "no policy is registered: import src/sim/policies/index.ts (the plug-in list's registry)",
    );
  return registered;
}

export function isPolicyKey(k: unknown): k is PolicyKey {
  return typeof k === "string" && policyKeys().includes(k);
}

/** Adds a key (refused by name if taken); returns a function that removes it again. */
export function registerPolicyKey(k: string): () => void {
  if (registered.includes(k)) throw new Error(`policy key "${k}" is already registered`);
  if (!/^[a-z][A-Za-z0-9]{0,31}$/.test(k))
    throw new Error(`policy key "${k}" must be a camelCase identifier of at most 32 characters`);
  registered.push(k);
  return () => {
    const i = registered.indexOf(k);
    if (i >= 0) registered.splice(i, 1);
  };
}

/** `policies`' allowed values, in words: every refusal of the list says it. */
export function policiesAllowed(): string {
  return `a list of 1–${MAX_POLICIES} distinct keys of ${policyKeys()
    .map((k) => `"${k}"`)
    .join(", ")}`;
}
