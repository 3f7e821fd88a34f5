/** A fingerprint of a recorded run's timelines: counts and sums pin every interval and curve point. */
import type { ReplicaRecording, RunResult, WholeJobRecording } from "../types.ts";

function sum(a: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] as number;
  return s;
}

/**
 * The fingerprint of a run of the default pair (the v1 and v2 recordings hold exactly these
 * two policies' timelines), read from their recordings by key.
 */
export function traceDigest(r: RunResult): Record<string, number> {
  const t = r.trace;
  if (!t) throw new Error("recorded run without a trace");
  const sync = t.recordings.synchronous;
  const ft = t.recordings.ftHsdp;
  if (sync?.kind !== "wholeJob" || ft?.kind !== "replicas")
    throw new Error("the digest reads a recorded run of synchronous and FT-HSDP");
  const s: WholeJobRecording = sync;
  const f: ReplicaRecording = ft;
  return {
    failures: t.failures.time.length,
    failureTimeSum: sum(t.failures.time),
    failureHostSum: sum(t.failures.host),
    failureHangSum: sum(t.failures.hang),
    ftStallSum: sum(f.stallPerFailure),
    syncStallSum: sum(s.stallPerFailure),
    syncLostSum: sum(s.lostPerFailure),
    ftIntervals: f.intervals.start.length,
    ftIntervalStartSum: sum(f.intervals.start),
    ftIntervalEndSum: sum(f.intervals.end),
    ftIntervalPhaseSum: sum(f.intervals.phase),
    ftStallSpans: f.stalls.start.length,
    ftStallSpanEndSum: sum(f.stalls.end),
    syncIntervals: s.intervals.start.length,
    syncIntervalEndSum: sum(s.intervals.end),
    syncIntervalStateSum: sum(s.intervals.state),
    syncProgressPoints: s.progress.t.length,
    syncProgressSum: sum(s.progress.useful),
    ftProgressPoints: f.progress.t.length,
    ftProgressSum: sum(f.progress.useful),
  };
}
