import { describe, expect, it } from "vitest";
import { MONTE_CARLO_BUDGET_FAILURES } from "../sim/monteCarlo/budget.ts";
import { presetById } from "../sim/presets.ts";
import { DEFAULT_SCENARIO, parseScenario, type Scenario } from "../sim/scenario/index.ts";
import { buildSweep, type SweepAxisId } from "../sim/sweep/index.ts";
import {
  addCosts,
  LINK_RUN_ASK_SECONDS,
  type LinkRunCost,
  linkRunAsks,
  NO_COST,
  runsCost,
} from "./linkRunCost.ts";

/** A link's sweep of `s` along `axis`, 20 points × 200 seeds (the link's defaults). */
function sweepOf(s: Scenario, axis: SweepAxisId): LinkRunCost {
  return buildSweep(s, axis, 20, null).reduce((sum, p) => addCosts(sum, runsCost(p.scenario, 200)), NO_COST);
}

describe("a link's run on open asks past a stated time", () => {
  it("asks for 100,000 runs of the default scenario, under the failure budget but a minute of work", () => {
    const cost = runsCost(DEFAULT_SCENARIO, 100_000);
    expect(cost.failures).toBeLessThan(MONTE_CARLO_BUDGET_FAILURES);
    expect(cost.seconds).toBeGreaterThan(LINK_RUN_ASK_SECONDS);
    expect(linkRunAsks(cost)).toBe(true);
  });

  it("runs the default sweep (20 points × 200 seeds) and a small one without asking", () => {
    expect(linkRunAsks(sweepOf(DEFAULT_SCENARIO, "gpus"))).toBe(false);
    expect(linkRunAsks(runsCost(DEFAULT_SCENARIO, 4 * 20))).toBe(false);
  });

  it("asks for the Greyhound preset's evict-after sweep, which took 27 s on one core (14 s on 2 workers)", () => {
    const greyhound = parseScenario(presetById("slow-greyhound")?.scenario);
    const cost = sweepOf(greyhound, "slow.evictAfterMinutes" as SweepAxisId);
    expect(cost.failures).toBeLessThan(MONTE_CARLO_BUDGET_FAILURES);
    expect(cost.seconds).toBeGreaterThan(LINK_RUN_ASK_SECONDS);
    expect(linkRunAsks(cost)).toBe(true);
  });

  it("counts each policy's run: four policies cost twice two", () => {
    const two = runsCost(DEFAULT_SCENARIO, 1000);
    const four = runsCost(
      { ...DEFAULT_SCENARIO, policies: [...DEFAULT_SCENARIO.policies, ...DEFAULT_SCENARIO.policies] },
      1000,
    );
    expect(four.failures).toBe(two.failures);
    expect(four.seconds).toBeCloseTo(2 * two.seconds, 9);
  });
});
