/**
 * When work a link starts on open (a sweep: `sw=…,run`) asks first. The estimate is the engine's
 * cost model (src/sim/monteCarlo/budget.ts: failures to simulate) times the time one failure takes on one
 * core, from `npm run bench` (bench/results.json: one default run, 2,375 failures, 0.61 ms
 * median). Past ASK_SECONDS, or past the Monte Carlo budget, the page asks, saying both.
 */
import { MONTE_CARLO_BUDGET_FAILURES } from "../sim/monteCarlo/budget.ts";

/** Seconds one simulated failure takes on one core (bench/results.json, default run). */
export const SECONDS_PER_FAILURE = 0.61e-3 / 2375;
/** A link's run whose estimate passes this many seconds on one core is asked about first. */
export const LINK_RUN_ASK_SECONDS = 10;

/** Seconds on one core to simulate `failures` failures. */
export function estimatedSeconds(failures: number): number {
  return failures * SECONDS_PER_FAILURE;
}

/** Whether a link's run of `failures` failures asks before it starts. */
export function linkRunAsks(failures: number): boolean {
  return failures > MONTE_CARLO_BUDGET_FAILURES || estimatedSeconds(failures) > LINK_RUN_ASK_SECONDS;
}
