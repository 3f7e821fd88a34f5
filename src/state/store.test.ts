import { describe, expect, it } from "vitest";
import { DEFAULT_SCENARIO, parseScenario } from "../sim/scenario.ts";
import { encodeScenarioHash } from "./shareLink.ts";
import { hashFor, stateFromHash } from "./store.ts";

describe("the URL hash as the app's state", () => {
  it("opens the view and scenario a link names", () => {
    const s = parseScenario({ cluster: { replicas: 24 } });
    const state = stateFromHash(`${encodeScenarioHash(s)}&v=step`);
    expect(state).toEqual({ tab: "step", scenario: s, linkError: null });
  });

  it("a broken link falls back to the defaults and says why", () => {
    const state = stateFromHash("#s=1.broken!");
    expect(state.scenario).toEqual(DEFAULT_SCENARIO);
    expect(state.linkError).toMatch(/could not be decoded/);
    expect(state.tab).toBe("cluster");
  });

  it("hashFor reproduces the state and keeps other views' keys", () => {
    const s = parseScenario({ seed: 42 });
    const hash = hashFor({ tab: "lab", scenario: s }, "#w=10,20");
    expect(hash).toContain("w=10,20");
    const back = stateFromHash(hash);
    expect(back.scenario).toEqual(s);
    expect(back.tab).toBe("lab");
    expect(hashFor({ tab: "cluster", scenario: s }, hash)).not.toContain("v=");
  });
});
