/**
 * The trace's shape before recordings were filed per policy: the synchronous and
 * FT-HSDP views by name. Tests written against that shape read a recorded run through this view,
 * so their assertions stay the same while the engine's trace is generic.
 */
import { replicaRecording, wholeJobRecording } from "../sim/recordings.ts";
import type { FailureWaterfall, FtRecovery, Recovery } from "../sim/recovery/recoveryWaterfall.ts";
import type {
  FailureLog,
  FtIntervals,
  FtJobIntervals,
  ProgressCurve,
  Spans,
  SparePoolHistory,
  SyncIntervals,
  Trace,
} from "../sim/types.ts";

export interface LegacyTrace {
  failures: FailureLog & {
    ftLostSeconds: Float64Array;
    ftStallSeconds: Float64Array;
    syncStallSeconds: Float64Array;
    syncLostSeconds: Float64Array;
  };
  ft: FtIntervals;
  ftStalls: Spans;
  ftJob: FtJobIntervals;
  sync: SyncIntervals;
  progress: { synchronous: ProgressCurve; ftHsdp: ProgressCurve };
  spares: { synchronous: SparePoolHistory; ftHsdp: SparePoolHistory };
}

const noPool = (): SparePoolHistory => ({
  t: new Float64Array(0),
  available: new Int32Array(0),
  waiting: new Int32Array(0),
});

/** The synchronous and FT-HSDP recordings of a trace, by their old names (both must be there). */
export function legacyTrace(trace: Trace): LegacyTrace {
  const sync = wholeJobRecording(trace, "synchronous");
  const ft = replicaRecording(trace, "ftHsdp");
  if (!sync || !ft) throw new Error("legacyTrace reads a run of synchronous and FT-HSDP");
  return {
    failures: {
      ...trace.failures,
      ftLostSeconds: ft.lostPerFailure,
      ftStallSeconds: ft.stallPerFailure,
      syncStallSeconds: sync.stallPerFailure,
      syncLostSeconds: sync.lostPerFailure,
    },
    ft: ft.intervals,
    ftStalls: ft.stalls,
    ftJob: ft.job,
    sync: sync.intervals,
    progress: { synchronous: sync.progress, ftHsdp: ft.progress },
    spares: { synchronous: sync.spares ?? noPool(), ftHsdp: ft.spares ?? noPool() },
  };
}

/** A failure's waterfall by the old names: the synchronous job's recovery and FT-HSDP's. */
export function legacyWaterfall(w: FailureWaterfall): { failure: number; sync: Recovery; ft: FtRecovery } {
  const sync = w.policies.find((p) => p.key === "synchronous")?.recovery;
  const ft = w.policies.find((p) => p.key === "ftHsdp")?.recovery;
  if (sync?.kind !== "wholeJob" || !ft || ft.kind === "wholeJob")
    throw new Error("legacyWaterfall reads a waterfall of synchronous and FT-HSDP");
  return { failure: w.failure, sync: sync.recovery, ft };
}
