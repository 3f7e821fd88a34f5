/**
 * What the cluster engine returns. This is the contract between src/sim (which fills it), the
 * worker (which transfers its typed arrays, not copies them) and the UI (which draws it).
 * Times are seconds from the start of the run.
 */
import type { PerPolicy, PolicyKey } from "./policyKeys.ts";
import type { Scenario } from "./scenario/types.ts";

/**
 * The policies' keys (policies.ts is the registry; its PolicyRecordings must have exactly these
 * keys, which it checks at compile time). Named in a leaf module (policyKeys.ts) so that the
 * result types and the scenario's type need nothing from the engine that fills them.
 */
export type { PerPolicy, PolicyKey };

/**
 * The phases a failed replica goes through under FT-HSDP (SIMULATION.md §1, §3). The codes are
 * stored in recorded traces and links' fingerprints, so they never change; the order a replica
 * goes through them is FT_PHASE_ORDER.
 */
export const FtPhase = {
  /** Detection (+ FTAR reconfigure): the failed replica is dead; everyone else waits: global stall. */
  detect: 1,
  /** Replica restart: this replica is down; the others train. */
  restart: 2,
  /** Catch-up from a healthy peer: down; a global stall too when catchUp = "blocking". */
  catchUp: 3,
  /** Rejoin: global stall while the ring re-forms. */
  rejoin: 4,
  /** Waiting for replacement hosts from the spare pool (§3): down; the others train. */
  waitSpare: 5,
  /**
   * Detection of a failure that struck a replica already outside the quorum, with
   * `ft.restrike = "quiet"` (§4): down, no reconfigure, the others train.
   */
  detectQuiet: 6,
} as const;
export type FtPhase = (typeof FtPhase)[keyof typeof FtPhase];

/** detect → waitSpare → restart → catch-up → rejoin. */
export const FT_PHASE_ORDER: readonly FtPhase[] = [
  FtPhase.detect,
  FtPhase.waitSpare,
  FtPhase.restart,
  FtPhase.catchUp,
  FtPhase.rejoin,
];

/** States of the synchronous job that are not plain training. */
export const SyncState = {
  /** Detection + restart: the whole job is stopped. */
  recovering: 1,
  /** A blocking checkpoint write. */
  checkpointing: 2,
  /** Training that a later failure rolled back: it happened, and was lost. */
  rolledBack: 3,
  /** Part of a recovery: waiting for replacement hosts from the spare pool (§3). */
  waitSpare: 4,
  /** Hot spares (§4): standbys take over the broken slots while the whole job waits. */
  migrating: 5,
} as const;
export type SyncState = (typeof SyncState)[keyof typeof SyncState];

/** What the FT-HSDP job as a whole does, on its own track (§3): job restarts and checkpoints. */
export const FtJobState = {
  /** A job-scope failure: every replica stopped, detect + sync.restartSeconds. */
  jobRestart: 1,
  /** A blocking FT-HSDP checkpoint write: a global stall. */
  checkpointing: 2,
  /** Progress a job restart rolled back to the last completed checkpoint. */
  rolledBack: 3,
} as const;
export type FtJobState = (typeof FtJobState)[keyof typeof FtJobState];

/** How far a failure reaches, as stored in the failure log (the cause's `scope`). */
export const ScopeCode = { host: 0, rack: 1, job: 2 } as const;
export type ScopeCode = (typeof ScopeCode)[keyof typeof ScopeCode];

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

export interface FtJobIntervals {
  state: Uint8Array; // FtJobState
  start: Float64Array;
  end: Float64Array;
}

/**
 * A spare pool over time, as a step function: from t[i] until t[i+1] (or the horizon) the pool
 * holds available[i] hosts and waiting[i] requests are unserved. Empty with an unlimited pool.
 */
export interface SparePoolHistory {
  t: Float64Array;
  available: Int32Array;
  waiting: Int32Array;
}

/** Time spans in which the FT-HSDP job as a whole made no progress (merged, disjoint, sorted). */
export interface Spans {
  start: Float64Array;
  end: Float64Array;
}

/** One row per failure, in time order. */
export interface FailureLog {
  time: Float64Array;
  /** The (first) host struck; −1 for a job-scope failure. */
  host: Int32Array;
  /** The (first) FT-HSDP replica struck; −1 for a job-scope failure. */
  replica: Int32Array;
  /** 1 = hang (watchdog-detected), 0 = fail-stop. */
  hang: Uint8Array;
  /** The synchronous job's detection delay (FT-HSDP's is ftDetectSeconds). */
  detectSeconds: Float64Array;
  /** Index into scenario.failures.causes; −1 without a cause mix. */
  cause: Int8Array;
  /** ScopeCode: host, rack or job. */
  scope: Uint8Array;
  /** Hosts struck: 1 for host scope, hostsPerRack for rack scope, 0 for job scope. */
  hostCount: Int32Array;
  /** FT-HSDP replicas struck (every replica for job scope). */
  replicaCount: Int32Array;
  /** FT-HSDP's detection delay: a hang is dropped after min(hangSeconds, ft.hangTimeoutSeconds > 0). */
  ftDetectSeconds: Float64Array;
  /** Training FT-HSDP lost to rollback at this failure (a job restart). */
  ftLostSeconds: Float64Array;
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
  /** FT-HSDP's job track: job restarts, checkpoint writes, rolled-back progress. */
  ftJob: FtJobIntervals;
  sync: SyncIntervals;
  /** Each policy's progress, by policy key. */
  progress: PerPolicy<ProgressCurve>;
  /** Each policy's spare pool (SIMULATION.md §3: one per policy); empty when unlimited. */
  spares: PerPolicy<SparePoolHistory>;
  /** The selected policies, in display order: the keys `recordings` holds. */
  policies: PolicyKey[];
  /**
   * Each selected policy's recording by key: its per-failure stall and loss, progress, spare
   * pool and its own tracks (policies.ts's PolicyRecordings gives each one's full type). The
   * fields above are the views the page reads by name.
   */
  recordings: Partial<Record<PolicyKey, CommonRecording>>;
}

/**
 * Where the time goes (SIMULATION.md §4): the categories wall time splits into besides useful
 * training, in the order of every column and bar. The order is also the index into
 * PolicyMetrics.badputSeconds. Keys are a public contract (CLI's `badput.<category>`, CSV columns).
 */
export const BADPUT_CATEGORIES = [
  "detection",
  "recovery",
  "spareWait",
  "rejoin",
  "checkpointWrite",
  "rolledBack",
  "degraded",
  "overhead",
] as const;
export type BadputCategory = (typeof BADPUT_CATEGORIES)[number];
/** Index of each category in a badput array (BADPUT_CATEGORIES' order). */
export const Badput = {
  detection: 0,
  recovery: 1,
  spareWait: 2,
  rejoin: 3,
  checkpointWrite: 4,
  rolledBack: 5,
  degraded: 6,
  overhead: 7,
} as const satisfies Record<BadputCategory, number>;

/** What every policy's recording holds, whatever else it draws: the views read these generically. */
export interface CommonRecording {
  progress: ProgressCurve;
  /** Whole-job stop attributed to each failure (the failure log's stall column). */
  stallPerFailure: Float64Array;
  /** Training rolled back at each failure. */
  lostPerFailure: Float64Array;
  /** The policy's own spare pool over time; absent with an unlimited pool. */
  spares?: SparePoolHistory;
}

export interface PolicyMetrics {
  /** Effective training time ratio: useful full-cluster training time / wall time. */
  ettr: number;
  usefulSeconds: number;
  wallSeconds: number;
  failures: number;
  /**
   * Time the whole job made no progress because of failures (sync: recovering; FT: a failure's
   * global stall). A checkpoint write alone is not in it (it is checkpointSeconds, both policies);
   * a write overlapping a failure's stall is. With a cause mix, the per-cause stalls add up to it.
   */
  stallSeconds: number;
  stallSecondsPerFailure: number;
  /** Training rolled back to the last completed checkpoint (FT-HSDP: only at job restarts). */
  lostWorkSeconds: number;
  checkpoints: number;
  checkpointSeconds: number;
  /** FT-HSDP: time training with at least one replica down (sync: 0). */
  degradedSeconds: number;
  /** Time-average of healthy replicas (sync: R while training, 0 while recovering). */
  meanHealthyReplicas: number;
  /** FT-HSDP: seconds spent with exactly k replicas down, k = 0..R (sync: empty). */
  secondsWithKDown: Float64Array;
  /** Job restarts started (synchronous: every failure is one; FT-HSDP: job-scope failures). */
  jobRestarts: number;
  /** Synchronous: wall seconds the job waited for spares; FT-HSDP: replica-seconds replicas waited. */
  spareWaitSeconds: number;
  /** The longest single wait for spares (one recovery's, or one replica's). */
  longestSpareWaitSeconds: number;
  /** Time this policy's spare pool held no spare host (0 with an unlimited pool). */
  poolEmptySeconds: number;
  /** Failures of each cause, indexed as scenario.failures.causes (empty without a cause mix). */
  causeCount: Float64Array;
  /** The stall (whole-job stop) attributed to each cause's failures, same indexing. */
  causeStallSeconds: Float64Array;
  /**
   * Where the time went: each badput category's share of wall time (BADPUT_CATEGORIES' keys).
   * ettr + the sum of the shares is 1 (within rounding) in every run.
   */
  badput: Record<BadputCategory, number>;
}

/** A closed form's value, or null with the reason it does not apply ("—" in the UI). */
export interface ClosedFormValue {
  value: number | null;
  /** What the value is (e.g. "exact renewal form"), or why there is none. */
  note: string;
}

export interface ClosedForms {
  /**
   * Version 1's fixed-arrival arithmetic, whatever the arrivals and checkpoints (kept bit for bit
   * for old readers of the CLI's JSON); `fixedArrivals` is the form with its assumptions.
   */
  fixed: { synchronous: number; ftHsdp: number };
  /** Version 1's E[e^(−λD)], whatever the arrivals; `poissonNoRollback` is the form with its assumptions. */
  poissonSyncNoRollback: number;
  /** Meta's first-order model clamped to [0, 1], as version 1 wrote it; `metaApproximation` says where it holds. */
  metaFirstOrder: number | null;
  /** §3: synchronous, Poisson, with checkpoints: E[e^(−λD)]·λC/(e^(λ(C+W))−1), exact for this model. */
  syncRenewal: ClosedFormValue;
  /** §3: FT-HSDP, Poisson, first order: e^(−λ·E[S])·(1 − λT/R)·C/(C+W). */
  ftFirstOrder: ClosedFormValue;
  /** Meta's first-order model with its validity (λ(C+W) ≪ 1), or why it does not apply. */
  metaApproximation: ClosedFormValue;
  /** §3: fixed arrivals every τ = 1/λ: sync (τ − D)/τ, or k·C/τ with checkpoints; FT-HSDP (τ − S − T/R)/τ. */
  fixedArrivals: { synchronous: ClosedFormValue; ftHsdp: ClosedFormValue };
  /** §1: synchronous, Poisson, no checkpoints (so no rollback): E[e^(−λD)]. */
  poissonNoRollback: ClosedFormValue;
  /**
   * §4: each selected policy's own form, by key (its module's closedForm), set by the engine and
   * the Monte Carlo (policyForms.ts); absent from closedForms()'s own result.
   */
  policies?: Partial<Record<PolicyKey, ClosedFormValue>>;
}

/** One run: each selected policy's metrics under its key (policies.ts), keys in display order. */
export type RunResult = {
  scenario: Scenario;
  closedForm: ClosedForms;
  /** Present when the run was asked to record (timelines, failure log, curves). */
  trace?: Trace;
} & PerPolicy<PolicyMetrics>;

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
  | "meanHealthyReplicas"
  | "jobRestarts"
  | "spareWaitSeconds"
  | "longestSpareWaitSeconds"
  | "poolEmptySeconds";

/** Per cause of the mix, in the scenario's order: how many failures and the stall they caused. */
export interface CauseSummary {
  name: string;
  count: Summary;
  stallSeconds: Summary;
}

export type MetricsSummary = Record<SummarizedMetric, Summary> & {
  causes: CauseSummary[];
  /** Each badput category's share of wall time over the seeds. */
  badput: Record<BadputCategory, Summary>;
};

/** A Monte Carlo: each selected policy's summary under its key (policies.ts), keys in display order. */
export type MonteCarloResult = {
  scenario: Scenario;
  seeds: number;
  closedForm: ClosedForms;
} & PerPolicy<MetricsSummary>;
