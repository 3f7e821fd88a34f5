/**
 * What the cluster engine returns. This is the contract between src/sim (which fills it), the
 * worker (which transfers its typed arrays, not copies them) and the UI (which draws it).
 * Times are seconds from the start of the run.
 */
import type { PerPolicy, PolicyKey } from "./policies/policyKeys.ts";
import type { Scenario } from "./scenario/types.ts";
import type { SlowEpisodes } from "./slow/slowTypes.ts";

/**
 * The policies' keys (policies.ts is the registry; its PolicyRecordings must have exactly these
 * keys, which it checks at compile time). Named in a leaf module (policyKeys.ts) so that the
 * result types and the scenario's type need nothing from the engine that fills them.
 */
export type { PerPolicy, PolicyKey };

/**
 * The phases a failed replica goes through under FT-HSDP (docs/model.md §1, §3). The codes are
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

/**
 * One row per failure, in time order: the failure trace every policy met. What each policy made
 * of a failure (its stall, its rolled-back work) is in that policy's recording (Trace.recordings).
 */
export interface FailureLog {
  time: Float64Array;
  /** The (first) host struck; −1 for a job-scope failure. */
  host: Int32Array;
  /** The (first) replica struck (replica-level policies); −1 for a job-scope failure. */
  replica: Int32Array;
  /** 1 = hang (watchdog-detected), 0 = fail-stop. */
  hang: Uint8Array;
  /** A whole-job policy's detection delay (a replica-level policy's is ftDetectSeconds). */
  detectSeconds: Float64Array;
  /** Index into scenario.failures.causes; −1 without a cause mix. */
  cause: Int8Array;
  /** ScopeCode: host, rack or job. */
  scope: Uint8Array;
  /** Hosts struck: 1 for host scope, hostsPerRack for rack scope, 0 for job scope. */
  hostCount: Int32Array;
  /** Replicas struck (every replica for job scope). */
  replicaCount: Int32Array;
  /** A replica-level policy's detection delay: a hang is dropped after min(hangSeconds, ft.hangTimeoutSeconds > 0). */
  ftDetectSeconds: Float64Array;
  /** §6: 1 = the eviction of a slow host (a failure found at once). */
  evicted: Uint8Array;
}

/**
 * Useful (full-cluster-equivalent) training done by wall time t, piecewise linear between the
 * points. The synchronous curve drops at a rollback; the FT-HSDP one never decreases.
 */
export interface ProgressCurve {
  t: Float64Array;
  useful: Float64Array;
}

/**
 * A recorded run: the failure log, and what each selected policy made of it. Views iterate
 * `policies` and draw each recording by its `kind` (the shape it has), never by policy key, so a
 * new policy whose recording has a known kind is drawn with no other change.
 */
export interface Trace {
  failures: FailureLog;
  /** The selected policies, in display order: the keys `recordings` holds. */
  policies: PolicyKey[];
  /** Each selected policy's recording, by key. */
  recordings: Partial<Record<PolicyKey, PolicyRecording>>;
  /** §6: the run's slow episodes (every policy met the same); absent when the scenario has none. */
  slow?: SlowEpisodes;
}

/**
 * Where the time goes (docs/model.md §4): the categories wall time splits into besides useful
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
  "slow",
  "outerSync",
  "convergence",
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
  slow: 8,
  outerSync: 9,
  convergence: 10,
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

/**
 * A whole-job policy's recording (synchronous, in-memory checkpoints, hot spares): one lane of
 * job states (SyncState). Every failure stops the whole job.
 */
export interface WholeJobRecording extends CommonRecording {
  readonly kind: "wholeJob";
  intervals: SyncIntervals;
}

/**
 * A replica-level policy's recording (FT-HSDP): each replica's recovery phases, the global stalls,
 * and the job as a whole (job restarts, checkpoint writes, rolled-back work).
 */
export interface ReplicaRecording extends CommonRecording {
  readonly kind: "replicas";
  intervals: FtIntervals;
  /** The failures' global stalls (stallSeconds); a write alone is on the job track only. */
  stalls: Spans;
  job: FtJobIntervals;
  /** §7: a semi-synchronous policy's rounds (DiLoCo); absent for FT-HSDP. */
  rounds?: RoundIntervals;
}

/** Spans of single replicas, columnar, in the order recorded. */
export interface ReplicaSpans {
  replica: Int32Array;
  start: Float64Array;
  end: Float64Array;
}

/** How a DiLoCo round ended (docs/model.md §7). */
export const RoundOutcome = {
  /** Still under way at the horizon: its steps so far count as committed. */
  pending: 0,
  committed: 1,
  /** Discarded: a failure in its sync, a job restart, or every participant lost. */
  discarded: 2,
} as const;
export type RoundOutcome = (typeof RoundOutcome)[keyof typeof RoundOutcome];

/**
 * §7: a recorded run's rounds, one row each in start order: its compute [start, computeEnd]
 * (NaN while computing at the horizon), its sync until `end`, how many replicas took part and
 * how it ended; and per replica, the work discarded and the idle waits for the next round.
 */
export interface RoundIntervals {
  start: Float64Array;
  computeEnd: Float64Array;
  end: Float64Array;
  participants: Int32Array;
  outcome: Uint8Array;
  discarded: ReplicaSpans;
  idle: ReplicaSpans;
}

/** A policy's recording, by the shape it has: the views draw each kind with their own tracks. */
export type PolicyRecording = WholeJobRecording | ReplicaRecording;
export type RecordingKind = PolicyRecording["kind"];

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
  /** §6: slow episodes that began in the run (the same for every policy). */
  slowEpisodes: number;
  /** §6: of the failures, those that were evictions of a slow host (counted in `failures` too). */
  evictions: number;
  /** §7: rounds committed (a semi-synchronous policy's; 0 for the others). */
  roundsCommitted: number;
  /** §7: rounds discarded (a failure in the sync, a job restart, every participant lost). */
  roundsDiscarded: number;
  /** §7: participants per round begun, on average (0 without rounds). */
  meanParticipants: number;
  /**
   * Where the time went: each badput category's share of wall time (BADPUT_CATEGORIES' keys).
   * ettr + the sum of the shares is 1 (within rounding) in every run.
   */
  badput: Record<BadputCategory, number>;
}

/**
 * The closed forms of docs/model.md §3 and §4 (closedForms.ts, types in closedFormTypes.ts): they are the two original
 * policies' own arithmetic, so their type lives with them.
 */
import type { ClosedForms, ClosedFormValue } from "./closedForms/closedFormTypes.ts";

export type { ClosedForms, ClosedFormValue };

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
  | "poolEmptySeconds"
  | "slowEpisodes"
  | "evictions"
  | "roundsCommitted"
  | "roundsDiscarded"
  | "meanParticipants";

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
