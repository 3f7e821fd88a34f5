/**
 * The policy registry: its keys and CSV prefixes are public contracts (CLI JSON, CSV columns,
 * links and test ids), and every consumer sees the policies in its order.
 */
import { describe, expect, it } from "vitest";
import { runOnTrace } from "../engine.ts";
import { generateFailureTrace } from "../failures/failureTrace.ts";
import { monteCarlo } from "../monteCarlo/monteCarlo.ts";
import { parseScenario } from "../scenario/index.ts";
import { POLICIES, policyOf, registeredPolicies } from "./index.ts";
import { PLUGINS } from "./pluginList.ts";
import { DEFAULT_POLICIES } from "./policyKeys.ts";

const s = parseScenario({
  cluster: { gpus: 64, gpusPerHost: 8, replicas: 4 },
  training: { days: 1 },
  failures: { perHostDay: 2 },
});

describe("the policy registry", () => {
  it("keeps the public keys and CSV prefixes, in order", () => {
    expect(POLICIES.map((p) => p.key)).toEqual(["synchronous", "ftHsdp"]);
    expect(POLICIES.map((p) => p.csvPrefix)).toEqual(["sync", "ft_hsdp"]);
    expect(new Set(POLICIES.map((p) => p.label)).size).toBe(POLICIES.length);
  });

  it("is the plug-in list, in its order: the built-in keys first, unchanged", () => {
    expect(registeredPolicies()).toEqual(PLUGINS);
    expect(PLUGINS.slice(0, 4).map((p) => [p.key, p.csvPrefix])).toEqual([
      ["synchronous", "sync"],
      ["ftHsdp", "ft_hsdp"],
      ["inMemory", "in_memory"],
      ["hotSpare", "hot_spare"],
    ]);
  });

  it("is what the engine and the Monte Carlo run: each policy's own run, under its key, in order", () => {
    const trace = generateFailureTrace(s, s.seed);
    const r = runOnTrace(s, trace);
    expect(Object.keys(r)).toEqual(["scenario", ...POLICIES.map((p) => p.key), "closedForm"]);
    for (const p of POLICIES) expect(r[p.key]).toEqual(p.run(s, trace, false).metrics);
    const mc = monteCarlo(s, 3);
    expect(Object.keys(mc)).toEqual(["scenario", "seeds", ...POLICIES.map((p) => p.key), "closedForm"]);
  });

  it("records every policy's recording under its key, in order", () => {
    const r = runOnTrace(s, generateFailureTrace(s, s.seed), true);
    expect(r.trace!.policies).toEqual(POLICIES.map((p) => p.key));
    expect(Object.keys(r.trace!.recordings)).toEqual(POLICIES.map((p) => p.key));
    for (const p of POLICIES) {
      const own = p.run(s, generateFailureTrace(s, s.seed), true).recording!;
      expect(r.trace!.recordings[p.key]).toEqual(own);
    }
  });

  it("gives each policy beyond the default two the words of its own closed form (the results' formula text)", () => {
    const shared: readonly string[] = DEFAULT_POLICIES;
    for (const { key: k } of registeredPolicies().filter(({ key }) => !shared.includes(key))) {
      expect(policyOf(k).formText?.formula, k).toMatch(/\S/);
      expect(policyOf(k).formText?.assumes, k).toMatch(/\S/);
    }
  });
});
