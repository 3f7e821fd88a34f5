/**
 * One failure's recovery, read back from a recorded trace as phases with their seconds: what the
 * failure log's stacked bars and the timeline's hover show (docs/model.md §3).
 *
 * A replica-level policy (FT-HSDP): for each replica a host or rack failure strikes, the run of that replica's phase
 * intervals that starts at the failure and follows back to back (detect → waitSpare → restart →
 * catch-up → rejoin) until the replica is healthy, another failure strikes it, or the horizon.
 * A job-scope failure (or any failure during a job restart, which starts that restart again)
 * is the job restart instead: detect + restart, and the training it rolled back.
 * A whole-job policy (synchronous, in-memory, hot spares): the recovery piece the failure owns (until the next failure or the recovery's
 * end): detect → waitSpare → restart, and the training it rolled back.
 *
 * Read-only over the engine's columns; nothing here simulates. A failure's own delays are
 * known per failure, the restart lengths are not needed: a recovery is its intervals.
 */

import { lowerBound } from "../sorted.ts";
import {
  type FtIntervals,
  FtPhase,
  type PolicyKey,
  type ReplicaRecording,
  ScopeCode,
  SyncState,
  type Trace,
  type WholeJobRecording,
} from "../types.ts";
import { type JobRestarts, recoveryIndexOf } from "./recoveryIndex.ts";

export type RecoveryPhase =
  | "detect"
  | "waitSpare"
  | "restart"
  | "catchUp"
  | "rejoin"
  /** Training rolled back to the last completed checkpoint: lost work, not wall time. */
  | "lostWork";

export interface RecoverySegment {
  phase: RecoveryPhase;
  seconds: number;
}

/**
 * How a recovery ended: `healthy` (done), `struck` (failure `by` struck at the instant it ended:
 * it cut the recovery short, or came right at its end — the phases say which), `horizon`.
 */
export type RecoveryEnd =
  | { kind: "healthy"; at: number }
  | { kind: "struck"; at: number; by: number }
  | { kind: "horizon"; at: number };

export interface Recovery {
  start: number;
  /** In the order they happened, none empty but detect; `lostWork`, when there is any, comes last. */
  segments: RecoverySegment[];
  end: RecoveryEnd;
}

export interface ReplicaRecovery extends Recovery {
  replica: number;
}

export type FtRecovery =
  | { kind: "replicas"; replicas: ReplicaRecovery[] }
  /** The job restart this failure started (job scope) or started again (any scope during one). */
  | { kind: "jobRestart"; recovery: Recovery };

/** A recovery of any policy, by its recording's kind. */
export type AnyRecovery = FtRecovery | { kind: "wholeJob"; recovery: Recovery };

export interface PolicyRecovery {
  key: PolicyKey;
  recovery: AnyRecovery;
}

export interface FailureWaterfall {
  failure: number;
  /** Each selected policy's recovery of the failure, in display order. */
  policies: PolicyRecovery[];
}

// Every phase named (satisfies): a new phase that is not drawn or named fails to compile.
const FT_PHASE: Record<number, RecoveryPhase> = {
  [FtPhase.detect]: "detect",
  [FtPhase.waitSpare]: "waitSpare",
  [FtPhase.restart]: "restart",
  [FtPhase.catchUp]: "catchUp",
  [FtPhase.rejoin]: "rejoin",
  // A quiet detect (restrike "quiet") is a detection all the same, only nobody else waits.
  [FtPhase.detectQuiet]: "detect",
} satisfies Record<FtPhase, RecoveryPhase>;

/** Wall seconds of a recovery (lost work is not wall time). */
export function wallSeconds(r: Recovery): number {
  let s = 0;
  for (const seg of r.segments) if (seg.phase !== "lostWork") s += seg.seconds;
  return s;
}

/** Wall seconds plus lost work: what the recovery cost the job in training. */
export function costSeconds(r: Recovery): number {
  let s = 0;
  for (const seg of r.segments) s += seg.seconds;
  return s;
}

/** Equal up to the rounding of one subtraction and addition (a − b + b may miss a by an ulp). */
function sameInstant(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a));
}

/** Whether failure k strikes replica r of R (a cyclic run of replicas; job scope strikes all). */
function strikes(trace: Trace, k: number, r: number, R: number): boolean {
  const first = trace.failures.replica[k] as number;
  if (first < 0) return true;
  return (((r - first) % R) + R) % R < (trace.failures.replicaCount[k] as number);
}

/** The first failure after `i` at instant `at` that `hits` accepts, or −1. */
function failureAt(trace: Trace, i: number, at: number, hits: (k: number) => boolean): number {
  const time = trace.failures.time;
  for (let k = lowerBound(time, at); k < time.length && (time[k] as number) <= at; k++)
    if (k !== i && (time[k] as number) === at && hits(k)) return k;
  return -1;
}

function endOf(
  trace: Trace,
  i: number,
  at: number,
  horizon: number,
  hits: (k: number) => boolean,
): RecoveryEnd {
  const by = failureAt(trace, i, at, hits);
  if (by >= 0) return { kind: "struck", at, by };
  if (at >= horizon) return { kind: "horizon", at };
  return { kind: "healthy", at };
}

/** Replica r's phases from failure i's instant on, back to back, until a new detect or a gap. */
function replicaRecovery(
  trace: Trace,
  ft: FtIntervals,
  i: number,
  r: number,
  R: number,
  horizon: number,
): ReplicaRecovery {
  const t0 = trace.failures.time[i] as number;
  const segments: RecoverySegment[] = [];
  let cursor = t0;
  // Two failures at one instant striking r: the later one owns the recovery (the first's
  // phases were cancelled before they began).
  const later = failureAt(trace, i, t0, (k) => k > i && strikes(trace, k, r, R));
  if (later < 0) {
    for (let row = lowerBound(ft.start, t0); row < ft.start.length; row++) {
      const a = ft.start[row] as number;
      if (a > cursor) break;
      if (ft.replica[row] !== r || a !== cursor) continue;
      const phase = ft.phase[row] as number;
      if (phase === FtPhase.detect && segments.length > 0) break;
      segments.push({ phase: FT_PHASE[phase] ?? "restart", seconds: (ft.end[row] as number) - a });
      cursor = ft.end[row] as number;
    }
  }
  const end: RecoveryEnd =
    later >= 0
      ? { kind: "struck", at: t0, by: later }
      : endOf(trace, i, cursor, horizon, (k) => strikes(trace, k, r, R));
  return { replica: r, start: t0, segments, end };
}

/** The job restart piece starting at failure i, if failure i started (or restarted) one. */
function jobRestart(
  trace: Trace,
  rec: ReplicaRecording,
  i: number,
  index: JobRestarts,
  horizon: number,
): Recovery | null {
  const t0 = trace.failures.time[i] as number;
  const k = lowerBound(index.jobStart, t0);
  const found = k < index.jobStart.length && index.jobStart[k] === t0;
  // A job-scope failure always restarts the job; only a zero-length restart leaves no piece.
  if (!found && trace.failures.scope[i] !== ScopeCode.job) return null;
  const at = found ? (index.jobEnd[k] as number) : t0;
  const length = at - t0;
  const detect = Math.min(trace.failures.ftDetectSeconds[i] as number, length);
  const segments: RecoverySegment[] = [{ phase: "detect", seconds: detect }];
  if (length > detect) segments.push({ phase: "restart", seconds: length - detect });
  const lost = rec.lostPerFailure[i] as number;
  if (lost > 0) segments.push({ phase: "lostWork", seconds: lost });
  // Any failure during a job restart starts it again.
  return { start: t0, segments, end: endOf(trace, i, at, horizon, () => true) };
}

/** A whole-job policy's recovery piece owned by failure i: detect → waitSpare → restart. */
function wholeJobRecovery(trace: Trace, rec: WholeJobRecording, i: number, horizon: number): Recovery {
  const f = trace.failures;
  const sync = rec.intervals;
  const t0 = f.time[i] as number;
  const stall = rec.stallPerFailure[i] as number;
  const stop = t0 + stall;
  let wait = 0;
  for (let row = lowerBound(sync.start, t0); row < sync.start.length; row++) {
    const a = sync.start[row] as number;
    if (a >= stop) break;
    if (sync.state[row] === SyncState.waitSpare) wait += Math.min(sync.end[row] as number, stop) - a;
  }
  const detect = Math.min(f.detectSeconds[i] as number, stall);
  const segments: RecoverySegment[] = [{ phase: "detect", seconds: detect }];
  if (wait > 0) segments.push({ phase: "waitSpare", seconds: wait });
  const restart = stall - detect - wait;
  if (restart > 0) segments.push({ phase: "restart", seconds: restart });
  const lost = rec.lostPerFailure[i] as number;
  if (lost > 0) segments.push({ phase: "lostWork", seconds: lost });
  // Any failure stops the whole job; the piece ends where the next one strikes.
  const end: RecoveryEnd =
    i + 1 < f.time.length && sameInstant(f.time[i + 1] as number, stop)
      ? { kind: "struck", at: f.time[i + 1] as number, by: i + 1 }
      : sameInstant(stop, horizon) || stop > horizon
        ? { kind: "horizon", at: horizon }
        : { kind: "healthy", at: stop };
  return { start: t0, segments, end };
}

/** A replica-level policy's recovery of failure i, from its recording. */
function replicaPolicyRecovery(
  trace: Trace,
  rec: ReplicaRecording,
  i: number,
  replicas: number,
  index: JobRestarts,
  horizon: number,
): FtRecovery {
  const job = jobRestart(trace, rec, i, index, horizon);
  if (job) return { kind: "jobRestart", recovery: job };
  const first = trace.failures.replica[i] as number;
  const count = trace.failures.replicaCount[i] as number;
  const out: ReplicaRecovery[] = [];
  for (let j = 0; j < count && first >= 0; j++)
    out.push(replicaRecovery(trace, rec.intervals, i, (first + j) % replicas, replicas, horizon));
  return { kind: "replicas", replicas: out };
}

const noRestarts: JobRestarts = { jobStart: new Float64Array(0), jobEnd: new Float64Array(0) };

/**
 * Failure i's recovery under each selected policy (the trace's order), from a recorded trace of a
 * cluster of `replicas` replicas: each read by its recording's kind. Costs a binary search and a
 * short scan per struck replica, per policy.
 */
export function recoveryWaterfall(trace: Trace, i: number, replicas: number): FailureWaterfall {
  const index = recoveryIndexOf(trace);
  const policies: PolicyRecovery[] = [];
  for (const key of trace.policies) {
    const rec = trace.recordings[key];
    if (!rec) continue;
    const recovery: AnyRecovery =
      rec.kind === "wholeJob"
        ? { kind: "wholeJob", recovery: wholeJobRecovery(trace, rec, i, index.horizon) }
        : replicaPolicyRecovery(trace, rec, i, replicas, index.jobRestarts[key] ?? noRestarts, index.horizon);
    policies.push({ key, recovery });
  }
  return { failure: i, policies };
}

/** The one recovery a bar shows: the whole job's, a job restart, or the longest replica's. */
export function mainRecovery(r: AnyRecovery): Recovery | null {
  return r.kind === "wholeJob" ? r.recovery : longestRecovery(r);
}

/** The replica recovery that took longest (what one bar shows for a rack striking several). */
export function longestRecovery(ft: FtRecovery): Recovery | null {
  if (ft.kind === "jobRestart") return ft.recovery;
  let best: ReplicaRecovery | null = null;
  for (const r of ft.replicas) if (!best || wallSeconds(r) > wallSeconds(best)) best = r;
  return best;
}
