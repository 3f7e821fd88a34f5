/**
 * Monte Carlo over seeds: runs of the engine summarized by mcSummary.ts (seed i is
 * (s.seed + i) >>> 0, so one seed is exactly runScenario(s)). The accumulator lets a worker run
 * the seeds in slices (and stop between them); monteCarlo is the same loop in one go. This file
 * holds what needs the engine and the policies' code (the runs, the closed forms); the summaries
 * live in mcSummary.ts so that the page's entry can merge bands without loading either.
 */

import { runScenario } from "../engine.ts";
import { closedFormsOf } from "../policies/policyForms.ts";
import type { Scenario } from "../scenario/index.ts";
import type { MonteCarloResult } from "../types.ts";
import {
  RunAccumulator,
  SUMMARIZED_METRICS,
  type SummarizedMetrics,
  type SummarizedRun,
  seedOf,
} from "./mcSummary.ts";

export {
  nearestRank,
  runsPerSlice,
  SUMMARIZED_METRICS,
  type SummarizedMetrics,
  type SummarizedRun,
  seedOf,
  summarize,
} from "./mcSummary.ts";

/** The accumulator with the scenario's closed forms in its result. */
export class MonteCarloAccumulator extends RunAccumulator {
  /** The summary of the runs added so far (at least one); keys in the order of the contract. */
  finish(): MonteCarloResult {
    return this.finishWith(closedFormsOf(this.scenario));
  }
}

export function monteCarlo(
  s: Scenario,
  seeds: number,
  onProgress?: (done: number, total: number) => void,
): MonteCarloResult {
  const acc = new MonteCarloAccumulator(s, seeds);
  for (let i = 0; i < seeds; i++) {
    acc.add(runScenario(s, { seed: seedOf(s, i) }));
    onProgress?.(i + 1, seeds);
  }
  return acc.finish();
}

/**
 * Runs start..start+count−1 of s (a chunk of the page's streaming Monte Carlo, mcStream.ts), each
 * policy's run cut to what the summary reads (a worker sends only this: no per-failure arrays).
 */
export function runChunk(s: Scenario, { start, count }: { start: number; count: number }): SummarizedRun[] {
  const keys = s.policies;
  const out: SummarizedRun[] = [];
  for (let i = start; i < start + count; i++) {
    const run = runScenario(s, { seed: seedOf(s, i) });
    const cut: SummarizedRun = {};
    for (const key of keys) {
      const m = run[key];
      if (!m) throw new RangeError(`a run without the selected policy ${key}`);
      const c = {} as SummarizedMetrics;
      for (const name of SUMMARIZED_METRICS) c[name] = m[name];
      c.causeCount = m.causeCount;
      c.causeStallSeconds = m.causeStallSeconds;
      c.badput = m.badput;
      cut[key] = c;
    }
    out.push(cut);
  }
  return out;
}
