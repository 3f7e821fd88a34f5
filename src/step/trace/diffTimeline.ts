/**
 * One step of control and the same step of test on one time axis: each side's computation,
 * communication and exposed communication, in ms from its own step's start, so the two steps
 * line up at their starts and their ends show the difference. A row never holds more than
 * `maxSpans` spans: gaps too short to see at that resolution are closed first, so what is drawn
 * from a step of millions of kernels stays bounded.
 */
import type { Interval } from "../intervals.ts";
import type { RankFigures } from "./measure.ts";
import { clip, mergeRank, type StepSplit, splitWindow } from "./stepSplit.ts";

export interface SideTimeline {
  name: string;
  stepMs: number;
  compute: Interval[];
  comm: Interval[];
  /** Communication not under computation. */
  exposed: Interval[];
  split: StepSplit;
}

export interface AlignedStep {
  rank: number;
  index: number;
  axisMs: number;
  control: SideTimeline;
  test: SideTimeline;
}

export const MAX_SPANS = 600;

/** a − b for merged (sorted, disjoint) lists. */
export function subtract(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  const out: Interval[] = [];
  let j = 0;
  for (const s of a) {
    let start = s.start;
    while (j < b.length && (b[j] as Interval).end <= start) j++;
    let k = j;
    while (k < b.length && (b[k] as Interval).start < s.end) {
      const cut = b[k] as Interval;
      if (cut.start > start) out.push({ start, end: cut.start });
      start = Math.max(start, cut.end);
      k++;
    }
    if (start < s.end) out.push({ start, end: s.end });
  }
  return out;
}

/**
 * At most `max` spans: the smallest gaps are closed until the count fits (a span then covers the
 * short gaps inside it; the drawing is exact to the width of the widest gap closed).
 */
export function coarsen(spans: readonly Interval[], max: number): Interval[] {
  if (spans.length <= max) return spans.map((s) => ({ ...s }));
  const gaps = spans.slice(1).map((s, i) => s.start - (spans[i] as Interval).end);
  const cut = [...gaps].sort((x, y) => y - x)[max - 2] ?? 0;
  const out: Interval[] = [{ ...(spans[0] as Interval) }];
  let kept = 1;
  for (let i = 1; i < spans.length; i++) {
    const s = spans[i] as Interval;
    const last = out.at(-1) as Interval;
    // Keep a gap only while it is among the widest max − 1.
    if ((gaps[i - 1] as number) > cut && kept < max) {
      out.push({ ...s });
      kept++;
    } else last.end = Math.max(last.end, s.end);
  }
  return out;
}

function side(f: RankFigures, k: number, maxSpans: number): SideTimeline | null {
  const w = f.stepWindows[k];
  if (w === undefined) return null;
  const m = mergeRank(f.activities);
  const compute = clip(m.compute, w.start, w.end);
  const comm = clip(m.comm, w.start, w.end);
  const rel = (list: readonly Interval[]) =>
    coarsen(list, maxSpans).map((s) => ({ start: (s.start - w.start) / 1e3, end: (s.end - w.start) / 1e3 }));
  return {
    name: w.name,
    stepMs: (w.end - w.start) / 1e3,
    compute: rel(compute),
    comm: rel(comm),
    exposed: rel(subtract(comm, compute)),
    split: splitWindow(m, w.start, w.end),
  };
}

/** The k-th kept step of one rank in control and in test, aligned at their starts. */
export function alignStep(
  control: RankFigures,
  test: RankFigures,
  k: number,
  maxSpans = MAX_SPANS,
): AlignedStep | null {
  const c = side(control, k, maxSpans);
  const t = side(test, k, maxSpans);
  if (c === null || t === null) return null;
  return { rank: control.rank, index: k, axisMs: Math.max(c.stepMs, t.stepMs), control: c, test: t };
}
