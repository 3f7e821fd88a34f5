/**
 * A slice of a Monte Carlo, as the CLI's threads share it out: runs start..start+count−1 of
 * scenario s, packed as one Float64Array row per run (both policies' summarized metrics), so a
 * worker thread hands back one transferable buffer instead of thousands of objects. The main
 * thread runs its own slices through the same function, and adds every row in run order.
 */
import { runScenario } from "../sim/engine.ts";
import { SUMMARIZED_METRICS, type SummarizedRun, seedOf } from "../sim/monteCarlo.ts";
import type { Scenario } from "../sim/scenario.ts";
import type { PolicyMetrics, SummarizedMetric } from "../sim/types.ts";

const POLICIES = ["synchronous", "ftHsdp"] as const;
const WIDTH = POLICIES.length * SUMMARIZED_METRICS.length;

export interface Chunk {
  start: number;
  count: number;
}

export function runChunk(s: Scenario, { start, count }: Chunk): Float64Array<ArrayBuffer> {
  const rows = new Float64Array(count * WIDTH);
  let k = 0;
  for (let i = start; i < start + count; i++) {
    const run = runScenario(s, { seed: seedOf(s, i) });
    for (const p of POLICIES) for (const m of SUMMARIZED_METRICS) rows[k++] = run[p][m];
  }
  return rows;
}

export function rowCount(rows: Float64Array): number {
  return rows.length / WIDTH;
}

/** Row j of a chunk's result, as the accumulator takes it. */
export function rowAt(rows: Float64Array, j: number): SummarizedRun {
  let k = j * WIDTH;
  const policy = () => {
    const m = {} as Pick<PolicyMetrics, SummarizedMetric>;
    for (const name of SUMMARIZED_METRICS) m[name] = rows[k++]!;
    return m;
  };
  const synchronous = policy();
  return { synchronous, ftHsdp: policy() };
}
