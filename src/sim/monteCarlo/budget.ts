/** The cost bound of the Monte Carlo an input can start, shared by the command line and the page. */
import { derived } from "../scenario/derived.ts";
import type { Scenario } from "../scenario/index.ts";
import { expectedReplicaRounds } from "../scenario/roundWork.ts";

/**
 * Failures a Monte Carlo started by one input may simulate before the person is asked (runs ×
 * expected failures per run, each run at least 1): the CLI refuses past it without --no-budget,
 * and a link's sweep asks before running past it. A thousand runs of the largest scenario the
 * validator accepts; `npm run bench:budget` times it: minutes on a quiet core, an hour loaded.
 */
export const MONTE_CARLO_BUDGET_FAILURES = 1e9;

/** Failures a Monte Carlo of `runs` runs of `s` simulates: the figure the budget bounds. */
export function monteCarloCost(s: Scenario, runs: number): number {
  return runs * expectedEventsPerRun(s);
}

/**
 * What one run costs: its expected failures plus its expected slow episodes (§6 counts them alike)
 * plus the replica-rounds of a strategy that runs in rounds (§7), at least 1.
 */
export function expectedEventsPerRun(s: Scenario): number {
  const d = derived(s);
  return Math.max(1, d.expectedFailures + d.expectedSlowEpisodes + expectedReplicaRounds(s));
}
