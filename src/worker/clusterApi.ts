/**
 * The cluster model's worker endpoints. Results with a trace carry typed arrays; they are
 * transferred to the UI thread, not copied (a 98K-GPU month is tens of thousands of rows).
 */
import { transfer } from "comlink";
import { runScenario, traceBuffers } from "../sim/engine.ts";
import type { Chunk } from "../sim/monteCarlo/mcStream.ts";
import {
  MonteCarloAccumulator,
  runChunk,
  runsPerSlice,
  type SummarizedRun,
  seedOf,
} from "../sim/monteCarlo/monteCarlo.ts";
import type { PolicyKey } from "../sim/policies/policyKeys.ts";
import { buildRecoveryIndex, type RecoveryIndex } from "../sim/recovery/recoveryIndex.ts";
import type { Scenario } from "../sim/scenario/index.ts";
import type { MonteCarloResult, RunResult } from "../sim/types.ts";

/**
 * A run as the worker sends it: with a trace, also the trace's recovery lookups, built here so
 * that the page's main thread does not (primeRecoveryIndex; ~40–130 ms there for a run with
 * 150,000 job restarts, in the task that renders the run).
 */
export type RecordedRun = RunResult & { recoveryIndex?: RecoveryIndex };

/**
 * A slice of a Monte Carlo, between two progress ticks and yields: at most 25 runs and about
 * 50,000 failures (tens of ms), so a newer request, a cancel or the supervisor's watchdog never
 * waits long, whatever the scenario's size.
 */
const SLICE_RUNS = 25;
const SLICE_FAILURES = 50_000;

const yieldToEvents = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

let generation = 0;

export const clusterApi = {
  /** One run at the scenario's seed, with its trace when `record` (for timelines). */
  clusterRun(scenario: Scenario, record: boolean): RecordedRun {
    const result = runScenario(scenario, { record });
    if (!result.trace) return result;
    const recoveryIndex = buildRecoveryIndex(result.trace);
    // Each buffer once (the trace's walk already lists a shared one once).
    const buffers = new Set([...traceBuffers(result.trace), ...traceBuffers(recoveryIndex)]);
    return transfer(Object.assign({}, result, { recoveryIndex }), [...buffers]);
  },

  /**
   * One chunk of the page's streaming Monte Carlo (sim/mcStream.ts): runs start..start+count−1,
   * cut to what the summary reads. Chunks are short (about 25,000 failures), so this answers
   * without yielding; the page merges chunks in seed order, whichever worker ran them.
   */
  clusterMonteCarloChunk(scenario: Scenario, chunk: Chunk): SummarizedRun[] {
    return runChunk(scenario, chunk);
  },

  /**
   * Monte Carlo over `seeds` seeds, in slices that yield to the event loop, so that a newer
   * request stops this one. Resolves null when superseded. The runs so far summarize exactly as
   * the finished Monte Carlo would summarize them (its first k seeds), so a partial band is the
   * final one's prefix, not an estimate of another kind.
   */
  async clusterMonteCarlo(
    scenario: Scenario,
    seeds: number,
    onProgress?: (done: number, total: number, soFar?: MonteCarloResult) => void,
    /** Send, with each tick, the summary of the runs done so far (the page's progressive band). */
    partials = false,
  ): Promise<MonteCarloResult | null> {
    const mine = ++generation;
    const acc = new MonteCarloAccumulator(scenario, seeds);
    const slice = runsPerSlice(scenario, SLICE_FAILURES, SLICE_RUNS);
    for (let i = 0; i < seeds; i++) {
      acc.add(runScenario(scenario, { seed: seedOf(scenario, i) }));
      if ((i + 1) % slice === 0 && i + 1 < seeds) {
        onProgress?.(i + 1, seeds, partials ? acc.finish() : undefined);
        await yieldToEvents();
        if (mine !== generation) return null;
      }
    }
    onProgress?.(seeds, seeds);
    return acc.finish();
  },

  /**
   * Each selected policy's ETTR on seeds from..from+count−1 of the scenario (seed i as the Monte
   * Carlo's), one value a run, transferred: the tornado pairs them run by run with the base
   * scenario's on the same seeds (common random numbers), which summaries cannot do.
   */
  clusterEttrRuns(scenario: Scenario, from: number, count: number): Partial<Record<PolicyKey, Float64Array>> {
    const out: Partial<Record<PolicyKey, Float64Array>> = {};
    for (const k of scenario.policies) out[k] = new Float64Array(count);
    for (let i = 0; i < count; i++) {
      const run = runScenario(scenario, { seed: seedOf(scenario, from + i) });
      for (const k of scenario.policies) (out[k] as Float64Array)[i] = run[k]?.ettr ?? Number.NaN;
    }
    return transfer(
      out,
      Object.values(out).flatMap((a) => (a ? [a.buffer as ArrayBuffer] : [])),
    );
  },
};
