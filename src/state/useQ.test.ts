import { describe, expect, it } from "vitest";
import { DEFAULT_SCENARIO, parseScenario } from "../sim/scenario/index.ts";
import { appStore } from "./store.ts";
import { applyStepEquivalence, stepEquivalenceProblem, withStepEquivalence } from "./useQ.ts";

describe("Use this q", () => {
  it("sets diloco.stepEquivalence to q as shown (two decimals) and changes nothing else", () => {
    const s = parseScenario({ cluster: { replicas: 16 }, diloco: { syncEvery: 50 } });
    const next = withStepEquivalence(s, 100 / 120);
    expect(next.diloco).toEqual({ ...s.diloco, stepEquivalence: 0.83 });
    // DiLoCo joins the strategies, so its knobs (q among them) show and q acts on its runs.
    expect(next.policies).toEqual([...s.policies, "diloco"]);
    expect({ ...next, diloco: s.diloco, version: s.version, policies: s.policies }).toEqual(s);
    expect(withStepEquivalence(next, 0.5).policies).toEqual(next.policies);
  });

  it("refuses a q the field does not take, naming it and its range", () => {
    expect(stepEquivalenceProblem(DEFAULT_SCENARIO, 1.25)).toMatch(/diloco\.stepEquivalence.*1/);
    expect(stepEquivalenceProblem(DEFAULT_SCENARIO, 0.9)).toBeNull();
  });

  it("writes into the scenario on screen, and a refused q leaves it as it was", () => {
    appStore.getState().setScenario(parseScenario({ cluster: { replicas: 16 } }));
    const before = appStore.getState().scenario;
    expect(applyStepEquivalence(1.5)).toMatch(/^The Cluster scenario takes no such q/);
    expect(appStore.getState().scenario).toBe(before);
    expect(applyStepEquivalence(0.8)).toMatch(/is now 0.8 \(was 1\)/);
    expect(appStore.getState().scenario).toEqual({
      ...before,
      diloco: { ...before.diloco, stepEquivalence: 0.8 },
      policies: [...before.policies, "diloco"],
      version: appStore.getState().scenario.version,
    });
    expect(appStore.getState().scenario.cluster.replicas).toBe(16);
  });
});
