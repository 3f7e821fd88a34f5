/**
 * The scenario's shape and its defaults: the types every module of the engine reads, with no
 * schema code, so that derived.ts and the engine import a scenario's type without importing the
 * validator that re-exports them (src/sim/scenario/index.ts is the public entry; its comment says what a
 * scenario is and how its version is derived).
 */

import { DEFAULT_POLICIES, type PolicyKey } from "../policies/policyKeys.ts";

export const SCENARIO_VERSION = 6 as const;
export type ScenarioVersion = 1 | 2 | 3 | 4 | 5 | 6;
export type { PolicyKey };

/** §4: what a failure does to an FT-HSDP replica already outside the quorum. */
export type Restrike = "stall" | "quiet";

/** §4: the `inMemory` policy's group (in-memory checkpoints, Gemini). */
export interface InMemoryGroup {
  checkpointMinutes: number;
  writeSeconds: number;
  restartSeconds: number;
  persistEvery: number;
}

/** §6: slow episodes (stragglers): hosts that stay alive but slow the job down. */
export interface SlowGroup {
  /** Episodes per host per day, Poisson over the fleet; 0 draws nothing (version 4 exactly). */
  perHostDay: number;
  /** Median episode length (lognormal). */
  medianMinutes: number;
  /** σ of the episode length's log; 0 = every episode lasts the median. */
  sigma: number;
  /** A slow host's steps take this many times as long. */
  factor: number;
  /** Evict a host still slow this long into its episode; 0 = never. */
  evictAfterMinutes: number;
}

/**
 * §7: the `diloco` policy's group (semi-synchronous training: rounds of H local steps, then one
 * outer sync among the round's participants; docs/model.md §7).
 */
export interface DilocoGroup {
  /** H: inner steps per round. */
  syncEvery: number;
  /** T: one outer sync (the pseudo-gradients' all-reduce and the outer step), in seconds. */
  syncSeconds: number;
  /** τ: inner steps the sync overlaps (Streaming DiLoCo); the replicas block for max(0, T − τ·s). */
  overlapSteps: number;
  /** q: what one inner step is worth in synchronous steps (a convergence penalty; shown and applied). */
  stepEquivalence: number;
}

/** §4: the `hotSpare` policy's group (warm standbys, live migration). */
export interface HotSpareGroup {
  standbys: number;
  migrateSeconds: number;
  refillMinutes: number;
}

export type Arrivals = "poisson" | "fixed" | "weibull" | "log";
export type CatchUp = "nonBlocking" | "blocking";
export type Placement = "packed" | "striped";
export type CauseScope = "host" | "rack" | "job";
export type SparePool = "unlimited" | "limited";
/** §5: how long a broken host's repair takes: always `repairHours`, or lognormal with that median. */
export type RepairLaw = "fixed" | "lognormal";

/** §5: lemon slots: round(share × hosts) slots fail `factor` times as often as the others. */
export interface BadHosts {
  share: number;
  factor: number;
}

/**
 * §5: one event of a replayed log: [tSeconds, causeIndex, host, host, …]. The hosts are struck
 * together; an event whose cause is job-scope lists none.
 */
export type LogEvent = number[];

/** §5: a log to replay (`failures.arrivals = "log"`), on the fleet of `hosts` it came from. */
export interface ReplayLog {
  hosts: number;
  days: number;
  events: LogEvent[];
}

/** One entry of the cause mix (docs/model.md §3): what a failure event of this kind strikes. */
export interface FailureCause {
  /** Shown as text, never as markup. */
  name: string;
  /** A weight: shares are normalised over the list. */
  share: number;
  scope: CauseScope;
  /** Hangs (found by a watchdog or FTAR's timeout) rather than dying. */
  hang: boolean;
  /** Breaks the hosts it strikes: each needs a replacement from the spare pool. */
  newHost: boolean;
}

export interface Scenario {
  /**
   * 1 when every §3 and §4 field is at its default, 2 when only §3 ones are not, 3 when a §4 one
   * is not: derived from the content (scenario.ts's comment).
   */
  version: ScenarioVersion;
  name: string;
  seed: number;
  /** §4: the strategies to run and show, in display order (1–5 distinct keys). */
  policies: PolicyKey[];
  cluster: {
    gpus: number;
    gpusPerHost: number;
    replicas: number;
    hostsPerRack: number;
    placement: Placement;
  };
  training: { days: number; stepSeconds: number };
  failures: {
    perHostDay: number;
    arrivals: Arrivals;
    weibullShape: number;
    hangFraction: number;
    causes: FailureCause[];
    /** §5: lemon slots (share 0: every slot alike, version 3). */
    badHosts: BadHosts;
    /** §5: the log replayed when `arrivals` is "log" (ignored otherwise). */
    log: ReplayLog;
  };
  detection: { failStopSeconds: number; hangSeconds: number };
  sync: { restartSeconds: number; checkpointMinutes: number; checkpointWriteSeconds: number };
  ft: {
    reconfigureSeconds: number;
    replicaRestartSeconds: number;
    catchUp: CatchUp;
    catchUpSeconds: number;
    rejoinSeconds: number;
    minReplicas: number;
    hangTimeoutSeconds: number;
    checkpointMinutes: number;
    checkpointWriteSeconds: number;
    /** §4: FTAR's per-step overhead, percent: training runs at (healthy/R) / (1 + o/100). */
    stepOverheadPercent: number;
    /** §4: what a failure does to a replica already outside the quorum. */
    restrike: Restrike;
  };
  spares: {
    pool: SparePool;
    hosts: number;
    repairHours: number;
    /** §5: fixed repairs (version 3) or lognormal ones whose median is `repairHours`. */
    repairLaw: RepairLaw;
    /** §5: σ of the lognormal repair law. */
    repairSigma: number;
  };
  inMemory: InMemoryGroup;
  hotSpare: HotSpareGroup;
  slow: SlowGroup;
  diloco: DilocoGroup;
}

export const GROUPS = [
  "cluster",
  "training",
  "failures",
  "detection",
  "sync",
  "ft",
  "spares",
  "inMemory",
  "hotSpare",
  "slow",
  "diloco",
] as const;
/** A group's name: the list's, so that the type and the list cannot name different groups. */
export type ScenarioGroup = (typeof GROUPS)[number];

/** A partial scenario: any field may be left out and is then taken from the defaults. */
export type ScenarioInput = {
  version?: number;
  name?: string;
  seed?: number;
  policies?: PolicyKey[];
} & { [G in ScenarioGroup]?: Partial<Scenario[G]> };

/** The name, share and scope a cause must state; hang and newHost may be left out (false, true). */
export type FailureCauseInput = Omit<FailureCause, "hang" | "newHost"> &
  Partial<Pick<FailureCause, "hang" | "newHost">>;

/** The FT-HSDP paper's headline (docs/model.md "Worked check"), with Poisson arrivals. */
export const DEFAULT_SCENARIO: Scenario = {
  // The defaults use no §3 setting: they are a version-1 scenario (see the file comment).
  version: 1,
  name: "FT-HSDP headline, Poisson arrivals",
  seed: 1,
  policies: [...DEFAULT_POLICIES],
  cluster: { gpus: 98_304, gpusPerHost: 8, replicas: 12, hostsPerRack: 1, placement: "packed" },
  training: { days: 30, stepSeconds: 10 },
  // 1/λ = 18 min on 12,288 hosts: r_f = 86400 / (1080 · 12288) = 0.00651 per host-day.
  failures: {
    perHostDay: 0.00651,
    arrivals: "poisson",
    weibullShape: 1,
    hangFraction: 0,
    causes: [],
    // §5: no lemon slots and an empty log reproduce version 3.
    badHosts: { share: 0, factor: 1 },
    log: { hosts: 0, days: 0, events: [] },
  },
  detection: { failStopSeconds: 60, hangSeconds: 600 },
  sync: { restartSeconds: 540, checkpointMinutes: 0, checkpointWriteSeconds: 0 },
  ft: {
    reconfigureSeconds: 0,
    replicaRestartSeconds: 420,
    catchUp: "nonBlocking",
    catchUpSeconds: 0,
    rejoinSeconds: 120,
    minReplicas: 1,
    hangTimeoutSeconds: 0,
    checkpointMinutes: 0,
    checkpointWriteSeconds: 0,
    // §4: no step overhead and §1's restrike rule reproduce version 2.
    stepOverheadPercent: 0,
    restrike: "stall",
  },
  // §5: fixed repairs reproduce version 3; σ = 1 is the lognormal law's default when chosen.
  spares: { pool: "unlimited", hosts: 0, repairHours: 24, repairLaw: "fixed", repairSigma: 1 },
  // §4's defaults: a checkpoint every 3 minutes, 2 s to write, 5 min to restart, every 10th durable.
  inMemory: { checkpointMinutes: 3, writeSeconds: 2, restartSeconds: 300, persistEvery: 10 },
  // §4's defaults: 2 standby hosts, 90 s to migrate, 30 min to prepare a new standby.
  hotSpare: { standbys: 2, migrateSeconds: 90, refillMinutes: 30 },
  // §6's defaults: no slow episodes (the rest only matter once perHostDay > 0).
  slow: { perHostDay: 0, medianMinutes: 15, sigma: 1, factor: 1.5, evictAfterMinutes: 0 },
  // §7's defaults: a sync every 100 steps, 60 s each, no overlap, no convergence penalty (they
  // only matter where `policies` names diloco).
  diloco: { syncEvery: 100, syncSeconds: 60, overlapSteps: 0, stepEquivalence: 1 },
};

/** Expected failures over the horizon above which a run is refused: keeps every input tab-safe. */
export const MAX_EXPECTED_FAILURES = 1_000_000;

/** Causes a scenario may list: bounds the per-event cost of drawing one. */
export const MAX_CAUSES = 32;

/** §5: a replayed log's bounds: events, and hosts one event may strike. */
export const MAX_LOG_EVENTS = 20_000;
export const MAX_LOG_HOSTS_PER_EVENT = 64;
