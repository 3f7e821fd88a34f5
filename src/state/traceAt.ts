/**
 * What a recorded run's trace says at one instant: the useful training each policy has done, the
 * synchronous job's state, which FT-HSDP replicas are in which recovery phase, and the instants
 * where any of that changes. Read-only lookups over the engine's columns (binary searches and
 * short scans), so the replay can ask them every frame; nothing here simulates.
 */
import { lowerBound } from "../sim/sorted.ts";
import type { FtPhase, ProgressCurve, Trace } from "../sim/types.ts";

/** Index of the first element of a sorted array greater than t (its length if none). */
export function upperBound(sorted: ArrayLike<number>, t: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the interval of a sorted, disjoint list that contains t, or −1. */
export function containing(start: Float64Array, end: Float64Array, t: number): number {
  const lo = upperBound(start, t);
  // Intervals may abut (a rollback ends where a recovery starts): look back a few.
  for (let i = lo - 1; i >= 0 && i >= lo - 4; i--)
    if ((end[i] as number) > t && (start[i] as number) <= t) return i;
  return -1;
}

/**
 * Useful training done by wall time t, read off a recorded progress curve (piecewise linear).
 * At an instant where the curve drops (a rollback), the value after the drop.
 */
export function progressAt(curve: ProgressCurve, t: number): number {
  const n = curve.t.length;
  if (n === 0) return 0;
  const i = upperBound(curve.t, t) - 1;
  if (i < 0) return curve.useful[0] as number;
  if (i >= n - 1) return curve.useful[n - 1] as number;
  const t0 = curve.t[i] as number;
  const t1 = curve.t[i + 1] as number;
  const u0 = curve.useful[i] as number;
  const u1 = curve.useful[i + 1] as number;
  return t1 > t0 ? u0 + ((t - t0) / (t1 - t0)) * (u1 - u0) : u1;
}

const longest = new WeakMap<Trace, number>();

/** The longest FT-HSDP phase interval: how far back an interval covering t can start (memoized). */
export function longestFtPhase(trace: Trace): number {
  let m = longest.get(trace);
  if (m === undefined) {
    const { start, end } = trace.ft;
    m = 0;
    for (let i = 0; i < start.length; i++) m = Math.max(m, (end[i] as number) - (start[i] as number));
    longest.set(trace, m);
  }
  return m;
}

/**
 * Most FT-HSDP intervals one lookup examines. Keeps a frame's cost bounded however dense the
 * trace; past it the answer covers the intervals that started last and says it is partial.
 */
export const SCAN_LIMIT = 20_000;

export interface FtNow {
  /** Replicas in each phase at t, indexed by FtPhase (index 0 unused). */
  phaseCounts: [number, number, number, number, number, number, number];
  /** Rows of trace.ft covering t (at most SCAN_LIMIT examined). */
  rows: number[];
  /** The earliest end of a covering interval after t (Infinity if none): the next change. */
  nextEnd: number;
  /** True when the scan stopped at SCAN_LIMIT. */
  partial: boolean;
}

/** Which replicas are in which recovery phase at t. `longest` = longestFtPhase(trace). */
export function ftAt(trace: Trace, t: number, longest: number): FtNow {
  const { start, end, phase } = trace.ft;
  const now: FtNow = {
    phaseCounts: [0, 0, 0, 0, 0, 0, 0],
    rows: [],
    nextEnd: Number.POSITIVE_INFINITY,
    partial: false,
  };
  const from = t - longest;
  let examined = 0;
  for (let i = upperBound(start, t) - 1; i >= 0 && (start[i] as number) >= from; i--) {
    if (++examined > SCAN_LIMIT) {
      now.partial = true;
      break;
    }
    const e = end[i] as number;
    if (e > t) {
      now.rows.push(i);
      now.phaseCounts[phase[i] as FtPhase]++;
      now.nextEnd = Math.min(now.nextEnd, e);
    }
  }
  return now;
}

/** The first value of a sorted array strictly after t (Infinity if none). */
function after(sorted: ArrayLike<number>, t: number): number {
  const i = upperBound(sorted, t);
  return i < sorted.length ? (sorted[i] as number) : Number.POSITIVE_INFINITY;
}

/** The last value of a sorted array strictly before t (−Infinity if none). */
function before(sorted: ArrayLike<number>, t: number): number {
  const i = lowerBound(sorted, t);
  return i > 0 ? (sorted[i - 1] as number) : Number.NEGATIVE_INFINITY;
}

/**
 * The next instant after t where anything on the timeline changes: a failure, a replica entering
 * or leaving a phase, the synchronous job stopping or resuming, a global stall starting or ending.
 * Infinity when nothing changes after t.
 */
export function nextChange(trace: Trace, t: number, longest: number): number {
  const { sync, ftStalls } = trace;
  let next = Math.min(
    after(trace.failures.time, t),
    after(trace.ft.start, t),
    after(sync.start, t),
    after(ftStalls.start, t),
    ftAt(trace, t, longest).nextEnd,
  );
  const s = containing(sync.start, sync.end, t);
  if (s >= 0) next = Math.min(next, sync.end[s] as number);
  const g = containing(ftStalls.start, ftStalls.end, t);
  if (g >= 0) next = Math.min(next, ftStalls.end[g] as number);
  return next;
}

/** The last instant before t where anything on the timeline changed (0 if none). */
export function previousChange(trace: Trace, t: number, longest: number): number {
  const { sync, ftStalls } = trace;
  const lastStart = before(trace.ft.start, t);
  return Math.max(
    0,
    before(trace.failures.time, t),
    lastStart,
    ftEndBefore(trace, t, lastStart, longest),
    before(sync.start, t),
    before(ftStalls.start, t),
    endBefore(sync.start, sync.end, t),
    endBefore(ftStalls.start, ftStalls.end, t),
  );
}

/**
 * The latest end of an FT-HSDP phase in (lastStart, t), where lastStart is the latest phase start
 * before t (an earlier end cannot be the previous change). Such an interval starts no earlier than
 * lastStart − longest; at most SCAN_LIMIT intervals are examined.
 */
function ftEndBefore(trace: Trace, t: number, lastStart: number, longest: number): number {
  const { start, end } = trace.ft;
  let best = Number.NEGATIVE_INFINITY;
  let examined = 0;
  for (let i = upperBound(start, t) - 1; i >= 0 && (start[i] as number) >= lastStart - longest; i--) {
    if (++examined > SCAN_LIMIT) break;
    const e = end[i] as number;
    if (e < t && e > best) best = e;
  }
  return best;
}

/** The latest end before t of a sorted, disjoint interval list (−Infinity if none). */
function endBefore(start: Float64Array, end: Float64Array, t: number): number {
  let best = Number.NEGATIVE_INFINITY;
  // Disjoint and sorted: only the last few intervals starting before t can end just before it.
  for (let i = upperBound(start, t) - 1, k = 0; i >= 0 && k < 4; i--, k++) {
    const e = end[i] as number;
    if (e < t) best = Math.max(best, e);
  }
  return best;
}

/** The first failure strictly after t, or −1. */
export function nextFailure(trace: Trace, t: number): number {
  const i = upperBound(trace.failures.time, t);
  return i < trace.failures.time.length ? i : -1;
}

/** Everything the replay shows at one instant. */
export interface Moment {
  t: number;
  /** Row of trace.sync holding t (recovering, checkpointing, rolled back), or −1: training. */
  syncRow: number;
  ft: FtNow;
  /** Row of trace.ftStalls holding t (every FT-HSDP replica waits), or −1. */
  stallRow: number;
  /** Useful training so far, per policy, read off the recorded curves. */
  useful: { synchronous: number; ftHsdp: number };
}

let lastMoment: { trace: Trace; moment: Moment } | null = null;

/**
 * The moment at t. The last answer is kept, so the views that draw one replay frame (the canvas,
 * the counters) share one lookup.
 */
export function momentAt(trace: Trace, t: number): Moment {
  if (lastMoment?.trace === trace && lastMoment.moment.t === t) return lastMoment.moment;
  const moment: Moment = {
    t,
    syncRow: containing(trace.sync.start, trace.sync.end, t),
    ft: ftAt(trace, t, longestFtPhase(trace)),
    stallRow: containing(trace.ftStalls.start, trace.ftStalls.end, t),
    useful: {
      synchronous: progressAt(trace.progress.synchronous, t),
      ftHsdp: progressAt(trace.progress.ftHsdp, t),
    },
  };
  lastMoment = { trace, moment };
  return moment;
}
