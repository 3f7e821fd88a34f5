/**
 * What a recorded run's trace says at one instant: for each selected policy, the useful training
 * it has done and its state (a whole-job policy's job state; a replica-level policy's replicas in
 * each recovery phase and its global stall), and the instants where any of that changes. Each
 * policy is read by its recording's kind, never by key. Read-only lookups over the engine's columns (binary searches and
 * short scans), so the replay can ask them every frame; nothing here simulates.
 */
import { lowerBound } from "../sim/sorted.ts";
import type {
  FtIntervals,
  FtPhase,
  PolicyKey,
  PolicyRecording,
  ProgressCurve,
  ReplicaRecording,
  Trace,
} from "../sim/types.ts";

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

const longest = new WeakMap<FtIntervals, number>();

/** The longest replica phase interval: how far back an interval covering t can start (memoized). */
export function longestFtPhase(rec: ReplicaRecording): number {
  let m = longest.get(rec.intervals);
  if (m === undefined) {
    const { start, end } = rec.intervals;
    m = 0;
    for (let i = 0; i < start.length; i++) m = Math.max(m, (end[i] as number) - (start[i] as number));
    longest.set(rec.intervals, m);
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
  /** Rows of the recording's intervals covering t (at most SCAN_LIMIT examined). */
  rows: number[];
  /** The earliest end of a covering interval after t (Infinity if none): the next change. */
  nextEnd: number;
  /** True when the scan stopped at SCAN_LIMIT. */
  partial: boolean;
}

/** Which replicas are in which recovery phase at t. `longest` = longestFtPhase(rec). */
export function ftAt(rec: ReplicaRecording, t: number, longest: number): FtNow {
  const { start, end, phase } = rec.intervals;
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

/** The next instant after t where this recording changes (Infinity if none). */
function nextChangeOf(rec: PolicyRecording, t: number): number {
  const iv = rec.intervals;
  let next = after(iv.start, t);
  if (rec.kind === "wholeJob") {
    const s = containing(iv.start, iv.end, t);
    if (s >= 0) next = Math.min(next, iv.end[s] as number);
    return next;
  }
  const { stalls } = rec;
  next = Math.min(next, after(stalls.start, t), ftAt(rec, t, longestFtPhase(rec)).nextEnd);
  const g = containing(stalls.start, stalls.end, t);
  if (g >= 0) next = Math.min(next, stalls.end[g] as number);
  return next;
}

/**
 * The next instant after t where anything on the timeline changes: a failure, or any selected
 * policy's state (a whole-job policy stopping or resuming, a replica entering or leaving a phase,
 * a global stall starting or ending). Infinity when nothing changes after t.
 */
export function nextChange(trace: Trace, t: number): number {
  let next = after(trace.failures.time, t);
  for (const rec of recordingsOf(trace)) next = Math.min(next, nextChangeOf(rec, t));
  return next;
}

/** The last instant before t where this recording changed (−Infinity if none). */
function previousChangeOf(rec: PolicyRecording, t: number): number {
  const iv = rec.intervals;
  if (rec.kind === "wholeJob") return Math.max(before(iv.start, t), endBefore(iv.start, iv.end, t));
  const { stalls } = rec;
  const lastStart = before(iv.start, t);
  return Math.max(
    lastStart,
    ftEndBefore(rec.intervals, t, lastStart, longestFtPhase(rec)),
    before(stalls.start, t),
    endBefore(stalls.start, stalls.end, t),
  );
}

/** The last instant before t where anything on the timeline changed (0 if none). */
export function previousChange(trace: Trace, t: number): number {
  let prev = Math.max(0, before(trace.failures.time, t));
  for (const rec of recordingsOf(trace)) prev = Math.max(prev, previousChangeOf(rec, t));
  return prev;
}

/** The selected policies' recordings, in display order. */
function recordingsOf(trace: Trace): PolicyRecording[] {
  const out: PolicyRecording[] = [];
  for (const k of trace.policies) {
    const r = trace.recordings[k];
    if (r) out.push(r);
  }
  return out;
}

/**
 * The latest end of a replica phase in (lastStart, t), where lastStart is the latest phase start
 * before t (an earlier end cannot be the previous change). Such an interval starts no earlier than
 * lastStart − longest; at most SCAN_LIMIT intervals are examined.
 */
function ftEndBefore(ft: FtIntervals, t: number, lastStart: number, longest: number): number {
  const { start, end } = ft;
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

/** One policy at one instant, by its recording's kind. */
export type PolicyMoment =
  | {
      key: PolicyKey;
      kind: "wholeJob";
      /** Useful training so far, read off the recorded curve. */
      useful: number;
      /** Row of the recording's intervals holding t (recovering, checkpointing, …), or −1: training. */
      row: number;
    }
  | {
      key: PolicyKey;
      kind: "replicas";
      useful: number;
      ft: FtNow;
      /** Row of the recording's stalls holding t (every replica waits), or −1. */
      stallRow: number;
    };

/** Everything the replay shows at one instant: each selected policy, in display order. */
export interface Moment {
  t: number;
  policies: PolicyMoment[];
}

function policyMomentAt(key: PolicyKey, rec: PolicyRecording, t: number): PolicyMoment {
  const useful = progressAt(rec.progress, t);
  if (rec.kind === "wholeJob")
    return { key, kind: "wholeJob", useful, row: containing(rec.intervals.start, rec.intervals.end, t) };
  return {
    key,
    kind: "replicas",
    useful,
    ft: ftAt(rec, t, longestFtPhase(rec)),
    stallRow: containing(rec.stalls.start, rec.stalls.end, t),
  };
}

let lastMoment: { trace: Trace; moment: Moment } | null = null;

/**
 * The moment at t. The last answer is kept, so the views that draw one replay frame (the canvas,
 * the counters) share one lookup.
 */
export function momentAt(trace: Trace, t: number): Moment {
  if (lastMoment?.trace === trace && lastMoment.moment.t === t) return lastMoment.moment;
  const policies: PolicyMoment[] = [];
  for (const key of trace.policies) {
    const rec = trace.recordings[key];
    if (rec) policies.push(policyMomentAt(key, rec, t));
  }
  const moment: Moment = { t, policies };
  lastMoment = { trace, moment };
  return moment;
}
