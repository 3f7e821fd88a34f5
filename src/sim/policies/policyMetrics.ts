/**
 * The metrics every policy reports, assembled in one place from what its run accumulated: each
 * policy module keeps only its own mechanics (when it stalls, what it rolls back) and hands the
 * totals here, so a metric means the same under every policy and a new one is added once.
 *
 * Called once per run (never per failure): it allocates the few small objects a result holds.
 */
import type { FailureTrace } from "../failures/failureTrace.ts";
import type { SpareRequests } from "../failures/spares.ts";
import { BADPUT_CATEGORIES, type BadputCategory, type PolicyMetrics } from "../types.ts";

/** What a policy's run accumulated, in seconds of wall time unless said otherwise. */
export interface RunTotals {
  /** Horizon. */
  wallSeconds: number;
  /** Useful full-cluster training time, after rollbacks. */
  usefulSeconds: number;
  stallSeconds: number;
  lostWorkSeconds: number;
  checkpoints: number;
  checkpointSeconds: number;
  degradedSeconds: number;
  /** ∫ healthy replicas dt (the time-average's numerator). */
  healthyReplicaSeconds: number;
  secondsWithKDown: Float64Array;
  jobRestarts: number;
  spareWaitSeconds: number;
  longestSpareWaitSeconds: number;
  pool: SpareRequests | null;
  /** Stall per cause of the mix (counts are taken from the trace here). */
  causeStallSeconds: Float64Array;
  /** Seconds lost to each badput category, indexed as BADPUT_CATEGORIES. */
  badputSeconds: Float64Array;
  /** §7: a semi-synchronous policy's rounds (absent: none). */
  rounds?: { committed: number; discarded: number; participantSum: number; begun: number };
}

/** Failures of each cause of the mix, from the shared trace. */
export function causeCounts(trace: FailureTrace, causes: number): Float64Array {
  const out = new Float64Array(causes);
  if (causes === 0) return out;
  for (let f = 0; f < trace.count; f++) {
    const c = trace.cause[f]!;
    if (c >= 0) out[c]!++;
  }
  return out;
}

/** §6: failures that were evictions (only a trace with slow episodes has any). */
function evictionsOf(trace: FailureTrace): number {
  let n = 0;
  for (let f = 0; f < trace.count; f++) n += trace.evicted[f]!;
  return n;
}

/** A fresh badput accumulator (one per run). */
export function badputSeconds(): Float64Array {
  return new Float64Array(BADPUT_CATEGORIES.length);
}

export function assembleMetrics(trace: FailureTrace, t: RunTotals): PolicyMetrics {
  const H = t.wallSeconds;
  const n = trace.count;
  const badput = {} as Record<BadputCategory, number>;
  BADPUT_CATEGORIES.forEach((k, i) => {
    badput[k] = t.badputSeconds[i]! / H;
  });
  return {
    ettr: t.usefulSeconds / H,
    usefulSeconds: t.usefulSeconds,
    wallSeconds: H,
    failures: n,
    stallSeconds: t.stallSeconds,
    stallSecondsPerFailure: n > 0 ? t.stallSeconds / n : 0,
    lostWorkSeconds: t.lostWorkSeconds,
    checkpoints: t.checkpoints,
    checkpointSeconds: t.checkpointSeconds,
    degradedSeconds: t.degradedSeconds,
    meanHealthyReplicas: t.healthyReplicaSeconds / H,
    secondsWithKDown: t.secondsWithKDown,
    jobRestarts: t.jobRestarts,
    spareWaitSeconds: t.spareWaitSeconds,
    longestSpareWaitSeconds: t.longestSpareWaitSeconds,
    poolEmptySeconds: t.pool ? t.pool.emptySeconds : 0,
    causeCount: causeCounts(trace, t.causeStallSeconds.length),
    causeStallSeconds: t.causeStallSeconds,
    slowEpisodes: trace.slow ? trace.slow.count : 0,
    evictions: trace.slow ? evictionsOf(trace) : 0,
    roundsCommitted: t.rounds ? t.rounds.committed : 0,
    roundsDiscarded: t.rounds ? t.rounds.discarded : 0,
    meanParticipants: t.rounds && t.rounds.begun > 0 ? t.rounds.participantSum / t.rounds.begun : 0,
    badput,
  };
}
