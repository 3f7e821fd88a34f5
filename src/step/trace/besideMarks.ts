/**
 * The model-beside-measurement step, bounded for drawing. One measured step may hold hundreds of
 * thousands of all-reduces (a million-event trace); the Gantt has ~1,000 pixels a row. Spans are
 * merged into at most `maxMarks` per row by time slice (a merged bucket carries the bytes of all
 * it stands for), and the sides' extents are taken by a loop, never by spreading an array into
 * `Math.max` (past ~100K arguments that overflows the stack).
 */
import type { Interval } from "../intervals.ts";
import type { BucketSpan, ModelBeside, StepSide } from "./modelBeside.ts";

/** About one mark per pixel of the widest Gantt. */
export const MAX_BESIDE_MARKS = 1000;

/** Merges time-sorted spans into at most ~maxMarks groups; `join` builds a group's span. */
function bySlice<T extends Interval>(spans: readonly T[], maxMarks: number, join: (g: T[]) => T): T[] {
  if (spans.length <= maxMarks) return spans.slice();
  let t0 = Number.POSITIVE_INFINITY;
  let t1 = Number.NEGATIVE_INFINITY;
  for (const s of spans) {
    t0 = Math.min(t0, s.start);
    t1 = Math.max(t1, s.end);
  }
  const width = (t1 - t0) / maxMarks || 1;
  const out: T[] = [];
  let group: T[] = [];
  let slice = Number.NaN;
  for (const s of spans) {
    const k = Math.floor((s.start - t0) / width);
    if (k !== slice && group.length > 0) {
      out.push(group.length === 1 ? (group[0] as T) : join(group));
      group = [];
    }
    slice = k;
    group.push(s);
  }
  if (group.length > 0) out.push(group.length === 1 ? (group[0] as T) : join(group));
  return out;
}

function extent(g: readonly Interval[]): Interval {
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  for (const s of g) {
    start = Math.min(start, s.start);
    end = Math.max(end, s.end);
  }
  return { start, end };
}

/** One side with at most ~maxMarks spans per row. */
export function boundSide(side: StepSide, maxMarks = MAX_BESIDE_MARKS): StepSide {
  const buckets = bySlice<BucketSpan>(side.buckets, maxMarks, (g) => {
    let bytes = 0;
    for (const b of g) bytes += b.bytes;
    return { ...extent(g), bytes };
  });
  const compute = bySlice<Interval>(side.compute, maxMarks, extent);
  return { ...side, buckets, compute };
}

/** The same step with at most ~maxMarks spans per row and side. */
export function boundBeside(b: ModelBeside, maxMarks = MAX_BESIDE_MARKS): ModelBeside {
  return { ...b, measured: boundSide(b.measured, maxMarks), predicted: boundSide(b.predicted, maxMarks) };
}

/** Where the drawing ends (ms from the step's start): the later of both steps and all their spans. */
export function besideEnd(b: ModelBeside): number {
  let end = Math.max(b.measured.stepMs, b.predicted.stepMs);
  for (const side of [b.measured, b.predicted]) {
    for (const s of side.buckets) end = Math.max(end, s.end);
    for (const s of side.compute) end = Math.max(end, s.end);
  }
  return end;
}
