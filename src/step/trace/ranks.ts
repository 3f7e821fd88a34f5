/**
 * Several rank files at once: each file measured on its own, then checked against the others
 * (a rank given twice, ranks of different jobs) and compared (HTA's straggler signal: how late
 * each rank starts the same collective).
 */
import { collectiveCalls, type MeasureOptions, measureRank, type RankFigures } from "./measure.ts";
import { TraceError } from "./traceError.ts";
import type { RankTrace } from "./traceModel.ts";

export interface LateStart {
  rank: number;
  /** Mean and largest delay (ms) of this rank's start of a collective behind the earliest rank's. */
  meanMs: number;
  maxMs: number;
  calls: number;
}

export interface TraceSet {
  ranks: RankFigures[];
  /** Per rank, how late it starts the collectives every rank ran; empty with one rank. */
  lateStart: LateStart[];
  warnings: string[];
}

/**
 * Refuses a rank that appears twice and ranks whose distributedInfo disagrees on the job (world
 * size or backend): their figures side by side would compare two different runs.
 */
export function checkRanks(traces: readonly RankTrace[], figures: readonly RankFigures[]): void {
  const byRank = new Map<number, string>();
  figures.forEach((f) => {
    const other = byRank.get(f.rank);
    if (other !== undefined) {
      throw new TraceError("duplicateRank", `rank ${f.rank} is given twice: ${other} and ${f.file}`);
    }
    byRank.set(f.rank, f.file);
  });
  const withInfo = traces.filter((t) => t.worldSize !== null);
  const first = withInfo[0];
  for (const t of withInfo) {
    if (first !== undefined && (t.worldSize !== first.worldSize || t.backend !== first.backend)) {
      throw new TraceError(
        "differentJobs",
        `${t.file} and ${first.file} are ranks of different jobs: world size ${t.worldSize} (${t.backend}) vs ${first.worldSize} (${first.backend})`,
      );
    }
  }
}

/**
 * HTA's straggler signal: the same collective (the k-th call of it in the same step) starts at
 * different times on different ranks; a rank that is always late holds the others back. Each
 * start is taken from its own step's start, so ranks whose clocks differ (old CPU traces count
 * from the process start) still compare.
 */
export function lateStarts(ranks: readonly RankFigures[]): LateStart[] {
  if (ranks.length < 2) return [];
  const calls = ranks.map((r) => new Map(collectiveCalls(r).map((c) => [c.key, c.offset])));
  const common = [...(calls[0]?.keys() ?? [])].filter((k) => calls.every((m) => m.has(k)));
  return ranks.map((r, i) => {
    let sum = 0;
    let max = 0;
    for (const k of common) {
      const earliest = Math.min(...calls.map((m) => m.get(k) as number));
      const late = (calls[i]?.get(k) as number) - earliest;
      sum += late;
      max = Math.max(max, late);
    }
    return {
      rank: r.rank,
      meanMs: common.length > 0 ? sum / common.length / 1e3 : 0,
      maxMs: max / 1e3,
      calls: common.length,
    };
  });
}

export function measureSet(traces: readonly RankTrace[], options: MeasureOptions): TraceSet {
  const ranks = traces.map((t, i) => measureRank(t, i, options));
  checkRanks(traces, ranks);
  const warnings: string[] = [];
  const sizes = new Set(traces.map((t) => t.worldSize).filter((w) => w !== null));
  const size = [...sizes][0];
  if (size !== undefined && traces.length < size) warnings.push(`${traces.length} of ${size} ranks opened`);
  const stepNames = ranks.map((r) => new Set(r.steps.map((s) => s.name)));
  if (stepNames.length > 1 && !stepNames.slice(1).some((s) => [...s].some((n) => stepNames[0]?.has(n)))) {
    warnings.push("the ranks share no ProfilerStep number: were they profiled in the same run?");
  }
  ranks.sort((a, b) => a.rank - b.rank);
  return { ranks, lateStart: lateStarts(ranks), warnings };
}
