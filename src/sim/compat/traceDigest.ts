/** A fingerprint of a recorded run's timelines: counts and sums pin every interval and curve point. */
import type { RunResult } from "../types.ts";

function sum(a: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] as number;
  return s;
}

export function traceDigest(r: RunResult): Record<string, number> {
  const t = r.trace;
  if (!t) throw new Error("recorded run without a trace");
  return {
    failures: t.failures.time.length,
    failureTimeSum: sum(t.failures.time),
    failureHostSum: sum(t.failures.host),
    failureHangSum: sum(t.failures.hang),
    ftStallSum: sum(t.failures.ftStallSeconds),
    syncStallSum: sum(t.failures.syncStallSeconds),
    syncLostSum: sum(t.failures.syncLostSeconds),
    ftIntervals: t.ft.start.length,
    ftIntervalStartSum: sum(t.ft.start),
    ftIntervalEndSum: sum(t.ft.end),
    ftIntervalPhaseSum: sum(t.ft.phase),
    ftStallSpans: t.ftStalls.start.length,
    ftStallSpanEndSum: sum(t.ftStalls.end),
    syncIntervals: t.sync.start.length,
    syncIntervalEndSum: sum(t.sync.end),
    syncIntervalStateSum: sum(t.sync.state),
    syncProgressPoints: t.progress.synchronous.t.length,
    syncProgressSum: sum(t.progress.synchronous.useful),
    ftProgressPoints: t.progress.ftHsdp.t.length,
    ftProgressSum: sum(t.progress.ftHsdp.useful),
  };
}
