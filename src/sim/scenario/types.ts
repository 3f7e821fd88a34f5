/**
 * The scenario's shape and its defaults: the types every module of the engine reads, with no
 * schema code, so that derived.ts and the engine import a scenario's type without importing the
 * validator that re-exports them (src/sim/scenario.ts is the public entry; its comment says what a
 * scenario is and how its version is derived).
 */

export const SCENARIO_VERSION = 2 as const;
export type ScenarioVersion = 1 | 2;

export type Arrivals = "poisson" | "fixed" | "weibull";
export type CatchUp = "nonBlocking" | "blocking";
export type Placement = "packed" | "striped";
export type CauseScope = "host" | "rack" | "job";
export type SparePool = "unlimited" | "limited";

/** One entry of the cause mix (SIMULATION.md §3): what a failure event of this kind strikes. */
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
  /** 1 when every §3 field is at its default, 2 otherwise: derived from the content (file comment). */
  version: ScenarioVersion;
  name: string;
  seed: number;
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
  };
  spares: { pool: SparePool; hosts: number; repairHours: number };
}

export type ScenarioGroup = "cluster" | "training" | "failures" | "detection" | "sync" | "ft" | "spares";
export const GROUPS: readonly ScenarioGroup[] = [
  "cluster",
  "training",
  "failures",
  "detection",
  "sync",
  "ft",
  "spares",
];

/** A partial scenario: any field may be left out and is then taken from the defaults. */
export type ScenarioInput = {
  version?: number;
  name?: string;
  seed?: number;
} & { [G in ScenarioGroup]?: Partial<Scenario[G]> };

/** The name, share and scope a cause must state; hang and newHost may be left out (false, true). */
export type FailureCauseInput = Omit<FailureCause, "hang" | "newHost"> &
  Partial<Pick<FailureCause, "hang" | "newHost">>;

/** The FT-HSDP paper's headline (SIMULATION.md "Worked check"), with Poisson arrivals. */
export const DEFAULT_SCENARIO: Scenario = {
  // The defaults use no §3 setting: they are a version-1 scenario (see the file comment).
  version: 1,
  name: "FT-HSDP headline, Poisson arrivals",
  seed: 1,
  cluster: { gpus: 98_304, gpusPerHost: 8, replicas: 12, hostsPerRack: 1, placement: "packed" },
  training: { days: 30, stepSeconds: 10 },
  // 1/λ = 18 min on 12,288 hosts: r_f = 86400 / (1080 · 12288) = 0.00651 per host-day.
  failures: { perHostDay: 0.00651, arrivals: "poisson", weibullShape: 1, hangFraction: 0, causes: [] },
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
  },
  spares: { pool: "unlimited", hosts: 0, repairHours: 24 },
};

/** Expected failures over the horizon above which a run is refused: keeps every input tab-safe. */
export const MAX_EXPECTED_FAILURES = 1_000_000;

/** Causes a scenario may list: bounds the per-event cost of drawing one. */
export const MAX_CAUSES = 32;
