/**
 * What the cluster engine returns. This is the contract between src/sim (which fills it), the
 * worker (which transfers its typed arrays, not copies them) and the UI (which draws it).
 * Times are seconds from the start of the run.
 */
import type { Scenario } from "./scenario.ts";

/** The phases a failed replica goes through under FT-HSDP (SIMULATION.md §1, in order). */
export const FtPhase = {
  /** Detection (+ FTAR reconfigure): the failed replica is dead; everyone else waits: global stall. */
  detect: 1,
  /** Replica restart: this replica is down; the others train. */
  restart: 2,
  /** Catch-up from a healthy peer: down; a global stall too when catchUp = "blocking". */
  catchUp: 3,
  /** Rejoin: global stall while the ring re-forms. */
  rejoin: 4,
} as const;
export type FtPhase = (typeof FtPhase)[keyof typeof FtPhase];

/** States of the synchronous job that are not plain training. */
export const SyncState = {
  /** Detection + restart: the whole job is stopped. */
  recovering: 1,
  /** A blocking checkpoint write. */
  checkpointing: 2,
  /** Training that a later failure rolled back: it happened, and was lost. */
  rolledBack: 3,
} as const;
export type SyncState = (typeof SyncState)[keyof typeof SyncState];

/** Intervals, columnar, sorted by start. Rows are the same index across the arrays. */
export interface FtIntervals {
  replica: Int32Array;
  phase: Uint8Array; // FtPhase
  start: Float64Array;
  end: Float64Array;
}

export interface SyncIntervals {
  state: Uint8Array; // SyncState
  start: Float64Array;
  end: Float64Array;
}

/** Time spans in which the FT-HSDP job as a whole made no progress (merged, disjoint, sorted). */
export interface Spans {
  start: Float64Array;
  end: Float64Array;
}

/** One row per failure, in time order. */
export interface FailureLog {
  time: Float64Array;
  host: Int32Array;
  replica: Int32Array;
  /** 1 = hang (watchdog-detected), 0 = fail-stop. */
  hang: Uint8Array;
  detectSeconds: Float64Array;
  /** Global stall this failure added under FT-HSDP (new stalled time, not overlapping earlier stalls). */
  ftStallSeconds: Float64Array;
  /** Whole-job stop this failure added under synchronous training (new recovery time). */
  syncStallSeconds: Float64Array;
  /** Training the synchronous job lost to rollback at this failure. */
  syncLostSeconds: Float64Array;
}

/**
 * Useful (full-cluster-equivalent) training done by wall time t, piecewise linear between the
 * points. The synchronous curve drops at a rollback; the FT-HSDP one never decreases.
 */
export interface ProgressCurve {
  t: Float64Array;
  useful: Float64Array;
}

export interface Trace {
  failures: FailureLog;
  ft: FtIntervals;
  ftStalls: Spans;
  sync: SyncIntervals;
  progress: { synchronous: ProgressCurve; ftHsdp: ProgressCurve };
}

export interface PolicyMetrics {
  /** Effective training time ratio: useful full-cluster training time / wall time. */
  ettr: number;
  usefulSeconds: number;
  wallSeconds: number;
  failures: number;
  /** Time the whole job made no progress because of failures (sync: recovering; FT: global stall). */
  stallSeconds: number;
  stallSecondsPerFailure: number;
  /** Training rolled back to the last completed checkpoint (always 0 for FT-HSDP). */
  lostWorkSeconds: number;
  checkpoints: number;
  checkpointSeconds: number;
  /** FT-HSDP: time training with at least one replica down (sync: 0). */
  degradedSeconds: number;
  /** Time-average of healthy replicas (sync: R while training, 0 while recovering). */
  meanHealthyReplicas: number;
  /** FT-HSDP: seconds spent with exactly k replicas down, k = 0..R (sync: empty). */
  secondsWithKDown: Float64Array;
}

export interface ClosedForms {
  /** SIMULATION.md's fixed-arrival arithmetic; exact when failures never overlap. */
  fixed: { synchronous: number; ftHsdp: number };
  /** e^(−λD): Poisson arrivals, synchronous, no rollback (a recovery restarts when hit). */
  poissonSyncNoRollback: number;
  /** Meta's first-order model (1 − λ(u0 + Δt_cp/2)) / (1 + w_cp/Δt_cp); null without checkpoint interval. */
  metaFirstOrder: number | null;
}

export interface RunResult {
  scenario: Scenario;
  synchronous: PolicyMetrics;
  ftHsdp: PolicyMetrics;
  closedForm: ClosedForms;
  /** Present when the run was asked to record (timelines, failure log, curves). */
  trace?: Trace;
}

export interface Summary {
  mean: number;
  p5: number;
  p95: number;
}

export type SummarizedMetric =
  | "ettr"
  | "failures"
  | "stallSeconds"
  | "stallSecondsPerFailure"
  | "lostWorkSeconds"
  | "checkpoints"
  | "degradedSeconds"
  | "meanHealthyReplicas";

export type MetricsSummary = Record<SummarizedMetric, Summary>;

export interface MonteCarloResult {
  scenario: Scenario;
  seeds: number;
  synchronous: MetricsSummary;
  ftHsdp: MetricsSummary;
  closedForm: ClosedForms;
}
