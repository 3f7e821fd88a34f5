/**
 * Two trace sets, control and test (HTA's `TraceDiff` names), compared per rank and per step
 * (docs/trace.md, "Comparing two trace sets"): ranks are matched by number, and the k-th kept
 * step of a rank in control with its k-th kept step in test; each step's time is split
 * (stepSplit.ts) and the difference test − control of every part is kept, so the parts of the
 * difference add up to the difference in step time. The kernels and operators of the matched
 * steps are compared as `TraceDiff.compare_traces` does (opsDiff.ts).
 */
import type { RankFigures } from "./measure.ts";
import { compareOps, type OpRow, tallyOps } from "./opsDiff.ts";
import { combine, meanOf, overlapPct, type StepSplit, splitSteps } from "./stepSplit.ts";

export interface StepDiff {
  /** Position among the kept steps of both sides. */
  index: number;
  controlName: string;
  testName: string;
  control: StepSplit;
  test: StepSplit;
  /** test − control, part by part. */
  delta: StepSplit;
}

export interface RankDiff {
  rank: number;
  controlFile: string;
  testFile: string;
  mode: "gpu" | "cpu";
  steps: StepDiff[];
  /** Means over the matched steps. */
  control: StepSplit;
  test: StepSplit;
  delta: StepSplit;
  controlOverlapPct: number | null;
  testOverlapPct: number | null;
  notes: string[];
}

export interface SetDiff {
  ranks: RankDiff[];
  /** Matched (rank, step) pairs. */
  pairs: number;
  /** Means over every matched (rank, step) pair. */
  control: StepSplit;
  test: StepSplit;
  delta: StepSplit;
  ops: OpRow[];
  notes: string[];
}

/** One rank of control beside the same rank of test. */
export function diffRank(c: RankFigures, t: RankFigures): RankDiff {
  const cs = splitSteps(c);
  const ts = splitSteps(t);
  const n = Math.min(cs.length, ts.length);
  const notes: string[] = [];
  if (cs.length !== ts.length)
    notes.push(
      `control keeps ${cs.length} step${cs.length === 1 ? "" : "s"}, test ${ts.length}: the first ${n} of each are compared`,
    );
  if (c.mode !== t.mode)
    notes.push(`control is a ${c.mode.toUpperCase()} trace, test a ${t.mode.toUpperCase()} one`);
  const steps: StepDiff[] = [];
  for (let k = 0; k < n; k++) {
    const a = cs[k] as StepSplit;
    const b = ts[k] as StepSplit;
    steps.push({
      index: k,
      controlName: c.stepWindows[k]?.name ?? `step ${k}`,
      testName: t.stepWindows[k]?.name ?? `step ${k}`,
      control: a,
      test: b,
      delta: combine(b, a, (x, y) => x - y),
    });
  }
  const control = meanOf(steps.map((s) => s.control));
  const test = meanOf(steps.map((s) => s.test));
  return {
    rank: c.rank,
    controlFile: c.file,
    testFile: t.file,
    mode: t.mode,
    steps,
    control,
    test,
    delta: combine(test, control, (x, y) => x - y),
    controlOverlapPct: overlapPct(control),
    testOverlapPct: overlapPct(test),
    notes,
  };
}

/** The ranks both sets hold, in rank order, and a note for each rank only one side has. */
export function matchRanks(
  control: readonly RankFigures[],
  test: readonly RankFigures[],
): { pairs: [RankFigures, RankFigures][]; notes: string[] } {
  const byRank = new Map(test.map((t) => [t.rank, t]));
  const inControl = new Set(control.map((c) => c.rank));
  const pairs: [RankFigures, RankFigures][] = [];
  const notes: string[] = [];
  for (const c of [...control].sort((a, b) => a.rank - b.rank)) {
    const t = byRank.get(c.rank);
    if (t === undefined) notes.push(`rank ${c.rank} is only in control (${c.file})`);
    else pairs.push([c, t]);
  }
  for (const t of test) if (!inControl.has(t.rank)) notes.push(`rank ${t.rank} is only in test (${t.file})`);
  return { pairs, notes };
}

/** The whole comparison from the ranks' diffs (the worker makes them one at a time). */
export function combineRanks(
  rankDiffs: readonly RankDiff[],
  pairs: readonly [RankFigures, RankFigures][],
  notes: readonly string[],
): SetDiff {
  const steps = rankDiffs.flatMap((r) => r.steps);
  const control = meanOf(steps.map((s) => s.control));
  const test = meanOf(steps.map((s) => s.test));
  // Each rank's ops over the steps compared on that rank.
  const tally = (side: 0 | 1) =>
    tallyOps(pairs.map((p, i) => ({ figures: p[side], steps: rankDiffs[i]?.steps.length ?? 0 })));
  const allNotes = [...notes];
  if (pairs.length === 0) allNotes.push("no rank is in both sets: there is nothing to compare");
  return {
    ranks: [...rankDiffs],
    pairs: steps.length,
    control,
    test,
    delta: combine(test, control, (x, y) => x - y),
    ops: compareOps(tally(0), tally(1)),
    notes: allNotes,
  };
}

/** Both sets compared at once (the command line; tests). */
export function diffSets(control: readonly RankFigures[], test: readonly RankFigures[]): SetDiff {
  const { pairs, notes } = matchRanks(control, test);
  return combineRanks(
    pairs.map(([c, t]) => diffRank(c, t)),
    pairs,
    notes,
  );
}
