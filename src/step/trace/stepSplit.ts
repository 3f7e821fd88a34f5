/**
 * One step's wall time split into what the device was doing during it (docs/trace.md, "Comparing
 * two trace sets"): computation, communication not hidden by computation (exposed), memory
 * copies running alone, and idle, which add up to the step's window exactly; communication and
 * its overlap with computation beside them. HTA's `get_temporal_breakdown` splits a rank's kernel
 * span into compute, non-compute and idle; here the span is the step's window and non-compute is
 * told apart into exposed communication and memory.
 */
import { type Interval, intersectLength, mergeIntervals, totalLength } from "../intervals.ts";
import type { Activity, RankFigures } from "./measure.ts";

export interface StepSplit {
  stepMs: number;
  computeMs: number;
  commMs: number;
  /** Communication under computation. */
  overlapMs: number;
  /** Communication not under computation: commMs − overlapMs. */
  exposedCommMs: number;
  /** Memory copies and sets under neither computation nor communication. */
  memoryMs: number;
  /** The window less everything that ran: stepMs = compute + exposed + memory + idle. */
  idleMs: number;
}

/** The parts that add up to the step's time, in the order they are named. */
export const ADDITIVE = ["computeMs", "exposedCommMs", "memoryMs", "idleMs"] as const;
export type Part = (typeof ADDITIVE)[number];

export const PART_NAME: Readonly<Record<Part, string>> = {
  computeMs: "computation",
  exposedCommMs: "exposed communication",
  memoryMs: "memory copies",
  idleMs: "idle",
};

/** A rank's activities merged once per class, so each window is a pair of binary searches. */
export interface MergedRank {
  compute: Interval[];
  comm: Interval[];
  all: Interval[];
}

export function mergeRank(acts: readonly Activity[]): MergedRank {
  return {
    compute: mergeIntervals(acts.filter((a) => a.cls === "compute")),
    comm: mergeIntervals(acts.filter((a) => a.cls === "comm")),
    all: mergeIntervals(acts),
  };
}

/** The spans of a merged (sorted, disjoint) list inside [start, end), cut at its edges. */
export function clip(merged: readonly Interval[], start: number, end: number): Interval[] {
  let lo = 0;
  let hi = merged.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((merged[mid] as Interval).end <= start) lo = mid + 1;
    else hi = mid;
  }
  const out: Interval[] = [];
  for (let i = lo; i < merged.length; i++) {
    const s = merged[i] as Interval;
    if (s.start >= end) break;
    out.push({ start: Math.max(s.start, start), end: Math.min(s.end, end) });
  }
  return out;
}

/** The split of the window [start, end) (µs), from everything the rank ran during it. */
export function splitWindow(m: MergedRank, start: number, end: number): StepSplit {
  const compute = clip(m.compute, start, end);
  const comm = clip(m.comm, start, end);
  const busy = totalLength(clip(m.all, start, end));
  const c = totalLength(compute);
  const k = totalLength(comm);
  const o = intersectLength(compute, comm);
  const exposed = k - o;
  return {
    stepMs: (end - start) / 1e3,
    computeMs: c / 1e3,
    commMs: k / 1e3,
    overlapMs: o / 1e3,
    exposedCommMs: exposed / 1e3,
    memoryMs: Math.max(0, busy - c - exposed) / 1e3,
    idleMs: Math.max(0, end - start - busy) / 1e3,
  };
}

/** Each kept step of a rank, split. */
export function splitSteps(f: RankFigures): StepSplit[] {
  const m = mergeRank(f.activities);
  return f.stepWindows.map((w) => splitWindow(m, w.start, w.end));
}

export const ZERO_SPLIT: StepSplit = {
  stepMs: 0,
  computeMs: 0,
  commMs: 0,
  overlapMs: 0,
  exposedCommMs: 0,
  memoryMs: 0,
  idleMs: 0,
};

const KEYS = Object.keys(ZERO_SPLIT) as (keyof StepSplit)[];

export function combine(a: StepSplit, b: StepSplit, f: (x: number, y: number) => number): StepSplit {
  const out = { ...ZERO_SPLIT };
  for (const key of KEYS) out[key] = f(a[key], b[key]);
  return out;
}

export function meanOf(splits: readonly StepSplit[]): StepSplit {
  if (splits.length === 0) return { ...ZERO_SPLIT };
  const sum = splits.reduce((acc, s) => combine(acc, s, (x, y) => x + y), ZERO_SPLIT);
  return combine(sum, sum, (x) => x / splits.length);
}

/** Overlap as HTA's `get_comm_comp_overlap` gives it: hidden ÷ communication, percent. */
export function overlapPct(s: StepSplit): number | null {
  return s.commMs > 0 ? (100 * s.overlapMs) / s.commMs : null;
}
