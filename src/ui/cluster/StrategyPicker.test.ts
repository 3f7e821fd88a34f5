import { describe, expect, it } from "vitest";
import { DEFAULT_SCENARIO, parseScenario } from "../../sim/scenario/index.ts";
import { V3_POLICIES } from "../../testing/scenario.arbitrary.ts";
import { toggledPolicies, withPolicies } from "./StrategyPicker.tsx";

describe("the strategy picker's selection", () => {
  it("adds a strategy in display order and removes one keeping the others' order", () => {
    expect(toggledPolicies(["synchronous", "ftHsdp"], "hotSpare", true)).toEqual([
      "synchronous",
      "ftHsdp",
      "hotSpare",
    ]);
    expect(toggledPolicies(["synchronous", "ftHsdp", "hotSpare"], "inMemory", true)).toEqual([
      "synchronous",
      "ftHsdp",
      "inMemory",
      "hotSpare",
    ]);
    // A link's own order is kept: the new one goes before the first that follows it in the registry.
    expect(toggledPolicies(["ftHsdp", "synchronous"], "inMemory", true)).toEqual([
      "ftHsdp",
      "synchronous",
      "inMemory",
    ]);
    expect(toggledPolicies(["synchronous", "ftHsdp", "inMemory"], "ftHsdp", false)).toEqual([
      "synchronous",
      "inMemory",
    ]);
  });

  it("writes the scenario's policies, so the choice is the scenario's (and the link's)", () => {
    const next = withPolicies(DEFAULT_SCENARIO, [...V3_POLICIES]);
    expect(typeof next).not.toBe("string");
    expect(next).toEqual(parseScenario({ ...DEFAULT_SCENARIO, policies: [...V3_POLICIES] }));
  });

  it("refuses no strategy at all by name, with the allowed values", () => {
    const refused = withPolicies(DEFAULT_SCENARIO, []);
    expect(refused).toMatch(/^policies: .*1–5 distinct keys/);
  });

  it("accepts any selection of 1-4 (the page draws each one it selects)", () => {
    const next = withPolicies(DEFAULT_SCENARIO, ["ftHsdp", "hotSpare"]);
    expect(typeof next).not.toBe("string");
    if (typeof next !== "string") expect(next.policies).toEqual(["ftHsdp", "hotSpare"]);
  });
});
