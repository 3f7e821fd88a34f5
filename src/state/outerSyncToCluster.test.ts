import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPolicyKey, registerPolicyKey } from "../sim/policies/policyKeys.ts";
import { DEFAULT_SCENARIO, diffFromDefaults, parseScenario } from "../sim/scenario/index.ts";
import { applyOuterSyncToCluster, scenarioWithOuterSync } from "./outerSyncToCluster.ts";
import { appStore } from "./store.ts";

const edit = { syncSeconds: 12.345678912, syncEvery: 250, overlapSteps: 7 };

describe("Use in the Cluster view", () => {
  // DiLoCo's policy is a plug-in: until its key is built in, the tests register it as a plug-in would.
  let unregister = () => {};
  beforeAll(() => {
    if (!isPolicyKey("diloco")) unregister = registerPolicyKey("diloco");
  });
  afterAll(() => unregister());

  it("writes the fields alone where the build cannot run DiLoCo", () => {
    expect(diffFromDefaults(scenarioWithOuterSync(DEFAULT_SCENARIO, edit, false))).toEqual({
      diloco: { syncSeconds: 12.3457, syncEvery: 250, overlapSteps: 7 },
    });
  });

  it("writes diloco.syncSeconds (to six digits), syncEvery and overlapSteps, and adds DiLoCo to the strategies", () => {
    const next = scenarioWithOuterSync(DEFAULT_SCENARIO, edit);
    expect(diffFromDefaults(next)).toEqual({
      policies: [...DEFAULT_SCENARIO.policies, "diloco"],
      diloco: { syncSeconds: 12.3457, syncEvery: 250, overlapSteps: 7 },
    });
  });

  it("keeps the rest of the scenario on screen, DiLoCo's other fields and the strategies' order included", () => {
    const current = parseScenario({
      cluster: { replicas: 16 },
      policies: ["diloco", "synchronous"],
      diloco: { stepEquivalence: 0.8, syncSeconds: 1 },
    });
    const next = scenarioWithOuterSync(current, edit);
    expect(next.policies).toEqual(["diloco", "synchronous"]);
    expect(next.cluster).toEqual(current.cluster);
    expect(diffFromDefaults(next)).toMatchObject({
      diloco: { stepEquivalence: 0.8, syncSeconds: 12.3457, syncEvery: 250, overlapSteps: 7 },
    });
  });

  it("opens the Cluster view on the edited scenario", () => {
    appStore.setState({ tab: "step", scenario: DEFAULT_SCENARIO });
    expect(applyOuterSyncToCluster(edit)).toBeNull();
    expect(appStore.getState().tab).toBe("cluster");
    expect(appStore.getState().scenario).toEqual(scenarioWithOuterSync(DEFAULT_SCENARIO, edit));
  });

  it("refuses a sync past the scenario's bound by name, and changes nothing", () => {
    appStore.setState({ tab: "step", scenario: DEFAULT_SCENARIO });
    const problem = applyOuterSyncToCluster({ ...edit, syncSeconds: 200_000 });
    expect(problem).toMatch(/diloco\.syncSeconds/);
    expect(appStore.getState().tab).toBe("step");
    expect(appStore.getState().scenario).toBe(DEFAULT_SCENARIO);
  });
});
