/**
 * A slice of a Monte Carlo, as the CLI's threads share it out: runs start..start+count−1 of
 * scenario s, packed as one Float64Array row per run (every policy's summarized metrics), so a
 * worker thread hands back one transferable buffer instead of thousands of objects. The main
 * thread runs its own slices through the same function, and adds every row in run order.
 */
import { runScenario } from "../sim/engine.ts";
import { SUMMARIZED_METRICS, type SummarizedMetrics, type SummarizedRun, seedOf } from "../sim/monteCarlo.ts";
import { POLICIES } from "../sim/policies.ts";
import type { Scenario } from "../sim/scenario.ts";

/** A row per run: per policy (registry order), the summarized metrics, then each cause's count and stall. */
function widthOf(causes: number): number {
  return POLICIES.length * (SUMMARIZED_METRICS.length + 2 * causes);
}

export interface Chunk {
  start: number;
  count: number;
}

export function runChunk(s: Scenario, { start, count }: Chunk): Float64Array<ArrayBuffer> {
  const causes = s.failures.causes.length;
  const rows = new Float64Array(count * widthOf(causes));
  let k = 0;
  for (let i = start; i < start + count; i++) {
    const run = runScenario(s, { seed: seedOf(s, i) });
    for (const { key } of POLICIES) {
      const m = run[key];
      for (const name of SUMMARIZED_METRICS) rows[k++] = m[name];
      for (let c = 0; c < causes; c++) rows[k++] = m.causeCount[c]!;
      for (let c = 0; c < causes; c++) rows[k++] = m.causeStallSeconds[c]!;
    }
  }
  return rows;
}

export function rowCount(rows: Float64Array, causes: number): number {
  return rows.length / widthOf(causes);
}

/** Row j of a chunk's result, as the accumulator takes it. */
export function rowAt(rows: Float64Array, j: number, causes: number): SummarizedRun {
  let k = j * widthOf(causes);
  const policy = (): SummarizedMetrics => {
    const m = {} as SummarizedMetrics;
    for (const name of SUMMARIZED_METRICS) m[name] = rows[k++]!;
    m.causeCount = rows.slice(k, k + causes);
    m.causeStallSeconds = rows.slice(k + causes, k + 2 * causes);
    k += 2 * causes;
    return m;
  };
  // In registry order, as runChunk wrote them.
  const run = {} as SummarizedRun;
  for (const { key } of POLICIES) run[key] = policy();
  return run;
}
