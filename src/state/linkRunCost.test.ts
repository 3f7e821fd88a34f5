import { describe, expect, it } from "vitest";
import { MONTE_CARLO_BUDGET_FAILURES } from "../sim/monteCarlo/budget.ts";
import { presetById } from "../sim/presets.ts";
import { DEFAULT_SCENARIO, parseScenario, type Scenario } from "../sim/scenario/index.ts";
import { buildSweep, type SweepAxisId } from "../sim/sweep/index.ts";
import {
  addCosts,
  costWords,
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

  it("prices DiLoCo's rounds once a round (not per replica and policy), and still budgets them per replica", () => {
    const minutes = parseScenario(presetById("diloco-failures-minutes")?.scenario);
    const everyStep = { ...minutes, diloco: { ...minutes.diloco, syncEvery: 1 } };
    const roundsPerRun = Math.ceil((minutes.training.days * 86_400) / minutes.training.stepSeconds);
    const cost = runsCost(everyStep, 10);
    expect(cost.rounds).toBe(10 * roundsPerRun);
    expect(cost.budget).toBe(10 * (cost.failures / 10 + roundsPerRun * minutes.cluster.replicas));
    const alone = runsCost({ ...everyStep, policies: ["diloco"] }, 10);
    expect(alone.rounds).toBe(cost.rounds);
    const noRounds = runsCost({ ...everyStep, policies: ["synchronous", "ftHsdp"] }, 10);
    expect(noRounds.rounds).toBe(0);
    expect(costWords(cost)).toMatch(/^[\d,]+ failures and [\d,]+ DiLoCo rounds$/);
    expect(costWords(noRounds)).toMatch(/^[\d,]+ failures$/);
    // The sweep of its round length (5 points × 10 seeds, 1.6 s on 2 workers in the page) runs
    // without asking; counted per replica and policy it was estimated at 27 s and asked.
    const sweep = buildSweep(minutes, "diloco.syncEvery" as SweepAxisId, 5, null).reduce(
      (sum, p) => addCosts(sum, runsCost(p.scenario, 10)),
      NO_COST,
    );
    expect(sweep.seconds).toBeLessThan(LINK_RUN_ASK_SECONDS);
    expect(linkRunAsks(sweep)).toBe(false);
  });
});
