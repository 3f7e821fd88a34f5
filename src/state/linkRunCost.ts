/**
 * When work a link starts on open (a sweep: `sw=…,run`; a tornado: `tn=…,run`) asks first. Two
 * figures: the failures it simulates (src/sim/budget.ts: the Monte Carlo budget's measure, the
 * command line's too) and the seconds it takes on one core. The seconds are runs × policies ×
 * (a cost per run + a cost per expected event), measured the way the page's workers run a
 * sweep (runChunk: summarized runs, not one bare run) by `npm run bench:linkcost`, which prints
 * this estimate against the time taken for the presets' sweeps; DiLoCo's rounds are counted
 * apart, once per round (its loop takes a round in O(1), whatever the replicas and the other
 * policies: counted as the budget counts them, per replica and policy, a 3-second sweep of its
 * round length was estimated at 27 s and asked about); the constants are set so that
 * the estimate is at least the time measured on each (a bare default run, bench/results.json,
 * is 2 to 12 times faster than a sweep's run per event: it missed a 27-second sweep). Past
 * LINK_RUN_ASK_SECONDS, or past the Monte Carlo budget, the page asks, saying both.
 */
import { MONTE_CARLO_BUDGET_FAILURES, monteCarloCost } from "../sim/monteCarlo/budget.ts";
import { derived } from "../sim/scenario/derived.ts";
import type { Scenario } from "../sim/scenario/index.ts";
import { expectedRounds } from "../sim/scenario/roundWork.ts";

/** Seconds on one core per run and policy, whatever it simulates (bench/linkCost.ts). */
export const SECONDS_PER_POLICY_RUN = 60e-6;
/** Seconds on one core per expected event (failure or slow episode) and policy (bench/linkCost.ts). */
export const SECONDS_PER_POLICY_EVENT = 1.0e-6;
/** Seconds on one core per DiLoCo round of one run (bench/linkCost.ts, the DiLoCo presets' sweeps). */
export const SECONDS_PER_ROUND = 0.1e-6;
/**
 * A limited spare pool's runs take this many times as long per event (each failure's repair is
 * queued and replacements waited for: the spares-dry preset's sweep, bench/linkCost.ts, 1.9×).
 */
export const LIMITED_POOL_FACTOR = 2.5;
/** A link's run whose estimate passes this many seconds on one core is asked about first. */
export const LINK_RUN_ASK_SECONDS = 10;

/** What a link's run costs: what it simulates, the budget's measure of it, and seconds on one core. */
export interface LinkRunCost {
  /** Expected failures and slow episodes, over every run. */
  failures: number;
  /** Expected DiLoCo rounds, over every run (0 where DiLoCo is not selected). */
  rounds: number;
  /** The Monte Carlo budget's measure (budget.ts: failures, slow episodes and replica-rounds). */
  budget: number;
  seconds: number;
}

export const NO_COST: LinkRunCost = { failures: 0, rounds: 0, budget: 0, seconds: 0 };

/** The cost of `runs` runs of `s`. */
export function runsCost(s: Scenario, runs: number): LinkRunCost {
  const d = derived(s);
  const failures = runs * (d.expectedFailures + d.expectedSlowEpisodes);
  const rounds = runs * expectedRounds(s);
  const perEvent = SECONDS_PER_POLICY_EVENT * (s.spares.pool === "limited" ? LIMITED_POOL_FACTOR : 1);
  return {
    failures,
    rounds,
    budget: monteCarloCost(s, runs),
    seconds:
      s.policies.length * (runs * SECONDS_PER_POLICY_RUN + failures * perEvent) + rounds * SECONDS_PER_ROUND,
  };
}

export function addCosts(a: LinkRunCost, b: LinkRunCost): LinkRunCost {
  return {
    failures: a.failures + b.failures,
    rounds: a.rounds + b.rounds,
    budget: a.budget + b.budget,
    seconds: a.seconds + b.seconds,
  };
}

/** Whether a link's run of this cost asks before it starts. */
export function linkRunAsks(cost: LinkRunCost): boolean {
  return cost.budget > MONTE_CARLO_BUDGET_FAILURES || cost.seconds > LINK_RUN_ASK_SECONDS;
}

/** "167,710 failures and 604,800 DiLoCo rounds": what the run simulates, in words. */
export function costWords(cost: LinkRunCost): string {
  const n = (x: number) => x.toLocaleString("en-US", { maximumFractionDigits: 0 });
  return cost.rounds > 0
    ? `${n(cost.failures)} failures and ${n(cost.rounds)} DiLoCo rounds`
    : `${n(cost.failures)} failures`;
}
