/**
 * A slice of a Monte Carlo, as the CLI's threads share it out: runs start..start+count−1 of
 * scenario s, packed as one Float64Array row per run (every policy's summarized metrics), so a
 * worker thread hands back one transferable buffer instead of thousands of objects. The main
 * thread runs its own slices through the same function, and adds every row in run order.
 */
import { runScenario } from "../sim/engine.ts";
import {
  SUMMARIZED_METRICS,
  type SummarizedMetrics,
  type SummarizedRun,
  seedOf,
} from "../sim/monteCarlo/monteCarlo.ts";
import { selectedPolicies } from "../sim/policies/index.ts";
import type { Scenario } from "../sim/scenario/index.ts";
import { BADPUT_CATEGORIES, type BadputCategory, type PolicyMetrics } from "../sim/types.ts";

/**
 * A row per run: per selected policy (display order), the summarized metrics, each cause's count
 * and stall, then each badput share.
 */
function widthOf(s: Scenario): number {
  const causes = s.failures.causes.length;
  return s.policies.length * (SUMMARIZED_METRICS.length + 2 * causes + BADPUT_CATEGORIES.length);
}

export interface Chunk {
  start: number;
  count: number;
}

export function runChunk(s: Scenario, { start, count }: Chunk): Float64Array<ArrayBuffer> {
  const causes = s.failures.causes.length;
  const policies = selectedPolicies(s);
  const rows = new Float64Array(count * widthOf(s));
  let k = 0;
  for (let i = start; i < start + count; i++) {
    const run = runScenario(s, { seed: seedOf(s, i) });
    for (const { key } of policies) {
      const m = run[key] as PolicyMetrics;
      for (const name of SUMMARIZED_METRICS) rows[k++] = m[name];
      for (let c = 0; c < causes; c++) rows[k++] = m.causeCount[c]!;
      for (let c = 0; c < causes; c++) rows[k++] = m.causeStallSeconds[c]!;
      for (const b of BADPUT_CATEGORIES) rows[k++] = m.badput[b];
    }
  }
  return rows;
}

export function rowCount(rows: Float64Array, s: Scenario): number {
  return rows.length / widthOf(s);
}

/** Row j of a chunk's result, as the accumulator takes it. */
export function rowAt(rows: Float64Array, j: number, s: Scenario): SummarizedRun {
  const causes = s.failures.causes.length;
  let k = j * widthOf(s);
  const policy = (): SummarizedMetrics => {
    const m = {} as SummarizedMetrics;
    for (const name of SUMMARIZED_METRICS) m[name] = rows[k++]!;
    m.causeCount = rows.slice(k, k + causes);
    m.causeStallSeconds = rows.slice(k + causes, k + 2 * causes);
    k += 2 * causes;
    m.badput = {} as Record<BadputCategory, number>;
    for (const b of BADPUT_CATEGORIES) m.badput[b] = rows[k++]!;
    return m;
  };
  // In display order, as runChunk wrote them.
  const run: SummarizedRun = {};
  for (const { key } of selectedPolicies(s)) run[key] = policy();
  return run;
}
