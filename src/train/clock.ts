/**
 * Simulated wall time: a step costs the scenario's training.stepSeconds; recoveries cost what the
 * cluster scenario says they cost, so the training chart and the cluster view agree.
 */
import type { Scenario } from "../sim/scenario/index.ts";

export interface RecoveryCosts {
  stepSeconds: number;
  /** FT-HSDP, at a failure: the whole job stalls while it is detected and the quorum shrinks. */
  ftFailureStall: number;
  /** FT-HSDP, when the replica comes back: the ring re-forms (and, when blocking, waits for catch-up). */
  ftRejoinStall: number;
  /** Synchronous, at a failure: detect, then restart the whole job from its checkpoint. */
  syncFailureStall: number;
  /** Synchronous: a blocking checkpoint write. */
  checkpointWrite: number;
  /** DiLoCo: one outer sync (the pseudo-gradients' all-reduce and the outer step). */
  outerSync: number;
}

export function recoveryCosts(s: Scenario): RecoveryCosts {
  return {
    stepSeconds: s.training.stepSeconds,
    ftFailureStall: s.detection.failStopSeconds + s.ft.reconfigureSeconds,
    ftRejoinStall: s.ft.rejoinSeconds + (s.ft.catchUp === "blocking" ? s.ft.catchUpSeconds : 0),
    syncFailureStall: s.detection.failStopSeconds + s.sync.restartSeconds,
    checkpointWrite: s.sync.checkpointWriteSeconds,
    outerSync: s.diloco.syncSeconds,
  };
}
