import { describe, expect, it } from "vitest";
import { MONTE_CARLO_BUDGET_FAILURES, monteCarloCost } from "../sim/monteCarlo/budget.ts";
import { DEFAULT_SCENARIO } from "../sim/scenario/index.ts";
import { estimatedSeconds, LINK_RUN_ASK_SECONDS, linkRunAsks } from "./linkRunCost.ts";

describe("a link's run on open asks past a stated time", () => {
  it("asks for 100,000 runs of the default scenario, under the failure budget but a minute of work", () => {
    const failures = monteCarloCost(DEFAULT_SCENARIO, 100_000);
    expect(failures).toBeLessThan(MONTE_CARLO_BUDGET_FAILURES);
    expect(estimatedSeconds(failures)).toBeGreaterThan(LINK_RUN_ASK_SECONDS);
    expect(linkRunAsks(failures)).toBe(true);
  });

  it("runs the default sweep (20 points × 200 seeds) and a small one without asking", () => {
    expect(linkRunAsks(monteCarloCost(DEFAULT_SCENARIO, 20 * 200))).toBe(false);
    expect(linkRunAsks(monteCarloCost(DEFAULT_SCENARIO, 4 * 20))).toBe(false);
  });
});
