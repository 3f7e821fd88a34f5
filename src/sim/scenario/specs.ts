/**
 * Every scenario field described once: its kind, range, unit, label, help, version, and its knob
 * (section, option labels, when it is enabled). The schema (schema.ts) and its messages, the
 * knobs panel (src/ui/cluster/knobLayout.ts), the README's table (src/cli/scenarioTable.ts) and the
 * share link all derive from these tables, so a range can never disagree between the validator
 * and the slider that feeds it. One table per group: a new group is a new table here, its type
 * and defaults in types.ts, and its name in GROUPS; the schema and parseScenario iterate GROUPS.
 */
import {
  MAX_CAUSES,
  MAX_LOG_EVENTS,
  MAX_LOG_HOSTS_PER_EVENT,
  type Scenario,
  type ScenarioGroup,
} from "./types.ts";

export interface NumberSpec {
  kind: "int" | "number";
  min: number;
  max: number;
  /** true when the lower bound itself is not allowed (e.g. days > 0). */
  minExclusive?: boolean;
  /** true when the upper bound itself is not allowed (e.g. an overhead below 1,000 %). */
  maxExclusive?: boolean;
  /**
   * The smallest meaningful value above `min`: values in (min, smallest) are refused. Time
   * intervals have one, because a subnormal interval is no interval: 1e-320 minutes between
   * checkpoints divides the horizon into Infinity cycles and every metric reads NaN. Rates and
   * probabilities have none: a tiny rate just means no failure, and version-1 links carry them.
   */
  smallest?: number;
  /**
   * How a what-if sweep moves it (src/sim/sweep/index.ts): the axis's own range when a person gives
   * none (its upper end stretches to twice the current value), and whether points are log-spaced.
   * A number without one is swept by an axis of its own (cluster size, MTBF, replicas).
   */
  sweep?: SweepSpec;
}
export interface SweepSpec {
  lo: number;
  hi: number;
  log?: true;
}
interface EnumSpec {
  kind: "enum";
  values: readonly string[];
  /** Values a version-1 scenario may not use (they came with version 2). */
  valuesSince2?: readonly string[];
  /** Values that came with version 4 (§5): using one makes the scenario version 4. */
  valuesSince4?: readonly string[];
  /**
   * Values a sweep never moves to, last in `values`: they need more than the value (a replay
   * needs its log), so a sweep's categories are the values before them.
   */
  valuesNotSwept?: readonly string[];
}
interface BoolSpec {
  kind: "bool";
}
interface TextSpec {
  kind: "text";
  minLength: number;
  maxLength: number;
}
interface ListSpec {
  kind: "list";
  maxItems: number;
  /** What one entry is called in messages ("cause"). */
  itemNoun: string;
  /** The entry's fields; those with `optionalDefault` may be left out of an entry. */
  item: Record<string, ScalarSpec>;
}
/** One number of a record field, with its own range. */
export type RecordMemberSpec = NumberSpec & {
  label: string;
  unit?: string;
  help: string;
  /**
   * When moving it alone changes what the engine reads (absent: whenever the record's knob is
   * enabled): half of a pair is inert while the other half is neutral (lemons at factor 1).
   */
  sweepWhen?: (s: Scenario) => boolean;
};
/** A small object of numbers (`failures.badHosts`): each field is a number with its own range. */
interface RecordSpec {
  kind: "record";
  fields: Record<string, RecordMemberSpec>;
}
/**
 * §5's replayed log `{hosts, days, events}`: checked against the scenario (consistency.ts), not
 * slid by a knob (the knobs panel shows a summary and a way back to drawn arrivals).
 */
interface LogSpec {
  kind: "log";
  maxEvents: number;
  maxHostsPerEvent: number;
}
interface Described {
  label: string;
  unit?: string;
  help: string;
  /**
   * The version the field came with (absent: version 1). Set off its default, it makes the
   * scenario that version: 2, and 3 to 6 (docs/model.md §4 to §7).
   */
  since?: 2 | 3 | 4 | 5 | 6;
}

/** The sections of the cluster view's knobs panel, in the order it shows them (src/ui/cluster/knobLayout.ts titles them). */
export const KNOB_SECTIONS = [
  "cluster",
  "failures",
  "causes",
  "detection",
  "sync",
  "ft",
  "spares",
  "slow",
  "diloco",
  "run",
] as const;
export type KnobSection = (typeof KNOB_SECTIONS)[number];

/**
 * How the cluster view shows a field: every field has one, so no field can be left without a
 * knob (knobLayout.test.ts checks it). Fields sit in their section in the order of this table.
 */
export interface KnobSpec {
  section: KnobSection;
  /** How each value of an enum reads in its menu (the scenario JSON keeps its own spelling). */
  options?: Readonly<Record<string, string>>;
  /** When the knob takes input (absent: always); a disabled knob still shows the value, which the engine ignores or refuses. */
  enabledWhen?: (s: Scenario) => boolean;
}
/** A field an entry of a list may have; `optionalDefault` is used when the entry leaves it out. */
export type ScalarSpec = (NumberSpec | EnumSpec | BoolSpec | TextSpec) &
  Described & { optionalDefault?: boolean | number | string };
export type FieldSpec = (NumberSpec | EnumSpec | BoolSpec | TextSpec | ListSpec | RecordSpec | LogSpec) &
  Described & { knob: KnobSpec };

/** One group's table: a spec for each of the group's fields, in the order they are listed everywhere. */
export type GroupSpecs<G extends ScenarioGroup> = { [K in keyof Scenario[G]]: FieldSpec };

const cluster: GroupSpecs<"cluster"> = {
  gpus: {
    kind: "int",
    min: 1,
    max: 1_000_000,
    label: "GPUs",
    help: "All GPUs in the job.",
    knob: { section: "cluster" },
  },
  gpusPerHost: {
    kind: "int",
    sweep: { lo: 1, hi: 64, log: true },
    min: 1,
    max: 64,
    label: "GPUs per host",
    help: "A failure takes down one host.",
    knob: { section: "cluster" },
  },
  replicas: {
    kind: "int",
    min: 1,
    max: 100_000,
    label: "Replicas (R)",
    help: "Data-parallel replicas; hosts must divide by R.",
    knob: { section: "cluster" },
  },
  hostsPerRack: {
    kind: "int",
    sweep: { lo: 1, hi: 64, log: true },
    min: 1,
    max: 1024,
    label: "Hosts per rack",
    help: "Hosts one rack-scope failure takes down together (a ToR switch, a rack's power); hosts must divide by it.",
    since: 2,
    knob: { section: "cluster" },
  },
  placement: {
    kind: "enum",
    values: ["packed", "striped"],
    label: "Placement",
    help: "Packed: a replica is a block of adjacent hosts. Striped: host h serves replica h mod R, so one rack touches many replicas.",
    since: 2,
    knob: { section: "cluster", options: { packed: "Packed", striped: "Striped" } },
  },
};

const training: GroupSpecs<"training"> = {
  days: {
    smallest: 0.001,
    kind: "number",
    sweep: { lo: 1, hi: 60 },
    min: 0,
    max: 365,
    minExclusive: true,
    label: "Horizon",
    unit: "days",
    help: "Simulated wall time.",
    knob: { section: "run" },
  },
  stepSeconds: {
    smallest: 0.001,
    kind: "number",
    sweep: { lo: 0.5, hi: 20 },
    min: 0,
    max: 3600,
    minExclusive: true,
    label: "Step time",
    unit: "s",
    help: "One training step; counts steps and paces the step views.",
    knob: { section: "run" },
  },
};

const failures: GroupSpecs<"failures"> = {
  perHostDay: {
    kind: "number",
    min: 0,
    max: 10,
    label: "Failure rate",
    unit: "per host-day",
    help: "Failures per host per day (r_f).",
    knob: { section: "failures" },
  },
  arrivals: {
    kind: "enum",
    values: ["poisson", "fixed", "weibull", "log"],
    valuesSince2: ["weibull"],
    valuesSince4: ["log"],
    valuesNotSwept: ["log"],
    label: "Arrivals",
    help: "Random (Poisson), one every 1/λ, a Weibull renewal process with mean 1/λ, or a replay of a log (failures.log).",
    knob: {
      section: "failures",
      options: { poisson: "Poisson", fixed: "Fixed (1/λ)", weibull: "Weibull", log: "Replay of a log" },
    },
  },
  weibullShape: {
    kind: "number",
    sweep: { lo: 0.3, hi: 3 },
    min: 0.2,
    max: 5,
    label: "Weibull shape (k)",
    help: "k < 1: bursts of correlated failures; k = 1: exponential; k > 1: more regular than random.",
    since: 2,
    knob: {
      section: "failures",
      // Only Weibull arrivals have a shape.
      enabledWhen: (s) => s.failures.arrivals === "weibull",
    },
  },
  hangFraction: {
    kind: "number",
    sweep: { lo: 0, hi: 1 },
    min: 0,
    max: 1,
    label: "Hang fraction",
    help: "Share of failures that hang instead of dying (0 when causes are listed: each cause says).",
    knob: {
      section: "failures",
      // §3: must be 0 beside a cause mix (each cause says whether it hangs).
      enabledWhen: (s) => s.failures.causes.length === 0,
    },
  },
  causes: {
    kind: "list",
    maxItems: MAX_CAUSES,
    itemNoun: "cause",
    label: "Cause mix",
    help: "What each failure is, drawn by share; empty = every failure strikes one host.",
    since: 2,
    item: {
      name: { kind: "text", minLength: 1, maxLength: 40, label: "Name", help: "Shown as text." },
      share: {
        kind: "number",
        min: 0,
        max: 1_000_000,
        minExclusive: true,
        label: "Share",
        help: "A weight, normalised over the list.",
      },
      scope: {
        kind: "enum",
        values: ["host", "rack", "job"],
        label: "Scope",
        help: "One host, every host of one rack, or the whole job (no healthy replica survives).",
      },
      hang: {
        kind: "bool",
        optionalDefault: false,
        label: "Hangs",
        help: "Found by a watchdog (or FTAR's timeout) instead of as a dead process.",
      },
      newHost: {
        kind: "bool",
        optionalDefault: true,
        label: "Needs a new host",
        help: "The struck hosts break and are replaced from the spare pool. Must be false for job scope, where leaving it out means false.",
      },
    },
    knob: { section: "causes" },
  },
  badHosts: {
    kind: "record",
    fields: {
      share: {
        kind: "number",
        sweep: { lo: 0, hi: 0.5 },
        min: 0,
        max: 1,
        maxExclusive: true,
        label: "Lemon share",
        help: "Share of host slots that are lemons (round(share × hosts) slots, drawn per seed).",
        sweepWhen: (s) => s.failures.badHosts.factor > 1,
      },
      factor: {
        kind: "number",
        sweep: { lo: 1, hi: 20, log: true },
        min: 1,
        max: 1000,
        label: "Lemon factor",
        help: "How many times as often a lemon slot fails as a good one; the fleet's mean rate stays r_f.",
        sweepWhen: (s) => s.failures.badHosts.share > 0,
      },
    },
    label: "Lemon hosts",
    help: "Slots that fail more often than the rest (a replacement in a lemon slot is a lemon too: the cabling, power or position is the fault).",
    since: 4,
    knob: { section: "failures", enabledWhen: (s) => s.failures.arrivals !== "log" },
  },
  log: {
    kind: "log",
    maxEvents: MAX_LOG_EVENTS,
    maxHostsPerEvent: MAX_LOG_HOSTS_PER_EVENT,
    label: "Replayed log",
    help: "{hosts, days, events: [[tSeconds, causeIndex, host, …], …]}: the failures a replay strikes (arrivals = log).",
    since: 4,
    knob: { section: "failures", enabledWhen: (s) => s.failures.arrivals === "log" },
  },
};

const detection: GroupSpecs<"detection"> = {
  failStopSeconds: {
    smallest: 0.001,
    kind: "number",
    sweep: { lo: 0, hi: 300 },
    min: 0,
    max: 86_400,
    label: "Fail-stop detection",
    unit: "s",
    help: "Time to notice a dead process.",
    knob: { section: "detection" },
  },
  hangSeconds: {
    smallest: 0.001,
    kind: "number",
    sweep: { lo: 0, hi: 1200 },
    min: 0,
    max: 86_400,
    label: "Hang detection",
    unit: "s",
    help: "Watchdog timeout (NCCL default 600 s).",
    knob: { section: "detection" },
  },
};

const sync: GroupSpecs<"sync"> = {
  restartSeconds: {
    smallest: 0.001,
    kind: "number",
    sweep: { lo: 0, hi: 1200 },
    min: 0,
    max: 86_400,
    label: "Job restart",
    unit: "s",
    help: "Reschedule, init, load checkpoint.",
    knob: { section: "sync" },
  },
  checkpointMinutes: {
    smallest: 0.01,
    kind: "number",
    sweep: { lo: 5, hi: 240 },
    min: 0,
    max: 10_080,
    label: "Checkpoint interval",
    unit: "min",
    help: "0 = checkpoint every step at no cost (no rollback).",
    knob: { section: "sync" },
  },
  checkpointWriteSeconds: {
    smallest: 0.001,
    kind: "number",
    sweep: { lo: 0, hi: 120 },
    min: 0,
    max: 3600,
    label: "Checkpoint write",
    unit: "s",
    help: "Blocking write time.",
    knob: { section: "sync" },
  },
};

const ft: GroupSpecs<"ft"> = {
  reconfigureSeconds: {
    smallest: 0.001,
    kind: "number",
    sweep: { lo: 0, hi: 120 },
    min: 0,
    max: 86_400,
    label: "FTAR reconfigure",
    unit: "s",
    help: "Quorum shrink, added to the detection stall.",
    knob: { section: "ft" },
  },
  replicaRestartSeconds: {
    smallest: 0.001,
    kind: "number",
    sweep: { lo: 0, hi: 900 },
    min: 0,
    max: 86_400,
    label: "Replica restart",
    unit: "s",
    help: "Failed replica down; others train.",
    knob: { section: "ft" },
  },
  catchUp: {
    kind: "enum",
    values: ["nonBlocking", "blocking"],
    label: "Catch-up mode",
    help: "Do the others wait while it fetches state?",
    knob: { section: "ft", options: { nonBlocking: "Non-blocking", blocking: "Blocking" } },
  },
  catchUpSeconds: {
    smallest: 0.001,
    kind: "number",
    sweep: { lo: 0, hi: 300 },
    min: 0,
    max: 86_400,
    label: "Catch-up time",
    unit: "s",
    help: "Fetch weights and optimizer state from a peer.",
    knob: { section: "ft" },
  },
  rejoinSeconds: {
    smallest: 0.001,
    kind: "number",
    sweep: { lo: 0, hi: 300 },
    min: 0,
    max: 86_400,
    label: "Rejoin",
    unit: "s",
    help: "Global stall while the ring re-forms.",
    knob: { section: "ft" },
  },
  minReplicas: {
    kind: "int",
    sweep: { lo: 1, hi: 64 },
    min: 1,
    max: 100_000,
    label: "Min replicas",
    help: "Below this many healthy replicas, training stops.",
    knob: { section: "ft" },
  },
  hangTimeoutSeconds: {
    smallest: 0.001,
    kind: "number",
    sweep: { lo: 0, hi: 600 },
    min: 0,
    max: 86_400,
    label: "FTAR hang timeout",
    unit: "s",
    help: "FTAR drops a hung member after min(this, hang detection); 0 = none (torchft: 60 s).",
    since: 2,
    knob: { section: "ft" },
  },
  checkpointMinutes: {
    smallest: 0.01,
    kind: "number",
    sweep: { lo: 5, hi: 240 },
    min: 0,
    max: 10_080,
    label: "Checkpoint interval",
    unit: "min",
    help: "Used only to recover from a job-scope failure; 0 = such a failure loses no work (optimistic).",
    since: 2,
    knob: { section: "ft" },
  },
  checkpointWriteSeconds: {
    smallest: 0.001,
    kind: "number",
    sweep: { lo: 0, hi: 120 },
    min: 0,
    max: 3600,
    label: "Checkpoint write",
    unit: "s",
    help: "Blocking write: a global stall.",
    since: 2,
    knob: { section: "ft" },
  },
  stepOverheadPercent: {
    kind: "number",
    sweep: { lo: 0, hi: 20 },
    min: 0,
    max: 1000,
    maxExclusive: true,
    label: "FTAR step overhead",
    unit: "%",
    help: "How much slower a step is with FTAR than with NCCL's all-reduce (the paper: parity at 8 ranks, near parity at 16).",
    since: 3,
    knob: { section: "ft", enabledWhen: (s) => s.policies.includes("ftHsdp") },
  },
  restrike: {
    kind: "enum",
    values: ["stall", "quiet"],
    label: "Restrike",
    help: "A failure of a replica already outside the quorum: stall = everyone waits again (§1's rule); quiet = only that replica starts over.",
    since: 3,
    knob: {
      section: "ft",
      options: { stall: "Stall everyone", quiet: "Quiet" },
      enabledWhen: (s) => s.policies.includes("ftHsdp"),
    },
  },
};

const spares: GroupSpecs<"spares"> = {
  pool: {
    kind: "enum",
    values: ["unlimited", "limited"],
    label: "Spare pool",
    help: "Whether replacement hosts can run out.",
    since: 2,
    knob: { section: "spares", options: { unlimited: "Unlimited", limited: "Limited" } },
  },
  hosts: {
    kind: "int",
    sweep: { lo: 0, hi: 64 },
    min: 0,
    max: 100_000,
    label: "Spare hosts",
    help: "Spares at the start (with a limited pool).",
    since: 2,
    knob: { section: "spares" },
  },
  repairHours: {
    smallest: 0.001,
    kind: "number",
    sweep: { lo: 1, hi: 168, log: true },
    min: 0,
    max: 8760,
    minExclusive: true,
    label: "Repair time",
    unit: "h",
    help: "A broken host is repaired this long after its failure and joins the pool (the median with lognormal repairs).",
    since: 2,
    knob: { section: "spares" },
  },
  repairLaw: {
    kind: "enum",
    values: ["fixed", "lognormal"],
    label: "Repair law",
    help: "Fixed: every repair takes the repair time. Lognormal: repair time × e^(σZ), heavy-tailed (mean = median × e^(σ²/2)).",
    since: 4,
    knob: {
      section: "spares",
      options: { fixed: "Fixed", lognormal: "Lognormal" },
      enabledWhen: (s) => s.spares.pool === "limited",
    },
  },
  repairSigma: {
    kind: "number",
    sweep: { lo: 0.1, hi: 2 },
    min: 0.01,
    max: 4,
    label: "Repair spread (σ)",
    help: "σ of ln(repair time) with lognormal repairs.",
    since: 4,
    knob: {
      section: "spares",
      enabledWhen: (s) => s.spares.pool === "limited" && s.spares.repairLaw === "lognormal",
    },
  },
};

/** §4: the `inMemory` policy's group (in-memory checkpoints; its knobs sit with the synchronous job's). */
const inMemory: GroupSpecs<"inMemory"> = {
  checkpointMinutes: {
    smallest: 0.01,
    kind: "number",
    sweep: { lo: 1, hi: 60 },
    min: 0,
    max: 10_080,
    label: "In-memory checkpoint interval",
    unit: "min",
    help: "Training between two copies into a peer's CPU memory; 0 = every step at no cost (nothing rolls back).",
    since: 3,
    knob: { section: "sync", enabledWhen: (s) => s.policies.includes("inMemory") },
  },
  writeSeconds: {
    smallest: 0.001,
    kind: "number",
    sweep: { lo: 0, hi: 30 },
    min: 0,
    max: 3600,
    label: "In-memory write",
    unit: "s",
    help: "Blocking copy into a peer host's CPU memory (another rack).",
    since: 3,
    knob: { section: "sync", enabledWhen: (s) => s.policies.includes("inMemory") },
  },
  restartSeconds: {
    smallest: 0.001,
    kind: "number",
    sweep: { lo: 0, hi: 600 },
    min: 0,
    max: 86_400,
    label: "Restart from memory",
    unit: "s",
    help: "Restart after a host or rack failure: no storage load.",
    since: 3,
    knob: { section: "sync", enabledWhen: (s) => s.policies.includes("inMemory") },
  },
  persistEvery: {
    kind: "int",
    sweep: { lo: 1, hi: 20 },
    min: 1,
    max: 100_000,
    label: "Persist every",
    help: "Every n-th in-memory checkpoint is also saved to storage in the background: what a job-scope failure rolls back to.",
    since: 3,
    knob: { section: "sync", enabledWhen: (s) => s.policies.includes("inMemory") },
  },
};

/** §4: the `hotSpare` policy's group (warm standbys; its knobs sit with the spare pool). */
const hotSpare: GroupSpecs<"hotSpare"> = {
  standbys: {
    kind: "int",
    sweep: { lo: 0, hi: 64 },
    min: 0,
    max: 100_000,
    label: "Standby hosts",
    help: "Warm hosts that hold the job's code and process groups and do not train (GB200 NVL72 racks keep 8 of 72 GPUs warm).",
    since: 3,
    knob: { section: "spares", enabledWhen: (s) => s.policies.includes("hotSpare") },
  },
  migrateSeconds: {
    smallest: 0.001,
    kind: "number",
    sweep: { lo: 0, hi: 600 },
    min: 0,
    max: 86_400,
    label: "Live migration",
    unit: "s",
    help: "Standbys take over the broken slots; the lost ranks' state is rebuilt from their data-parallel peers. The whole job waits.",
    since: 3,
    knob: { section: "spares", enabledWhen: (s) => s.policies.includes("hotSpare") },
  },
  refillMinutes: {
    smallest: 0.001,
    kind: "number",
    sweep: { lo: 0, hi: 240 },
    min: 0,
    max: 525_600,
    label: "Standby refill",
    unit: "min",
    help: "Until a used standby's replacement is prepared and ready.",
    since: 3,
    knob: { section: "spares", enabledWhen: (s) => s.policies.includes("hotSpare") },
  },
};

/** §6: slow episodes (stragglers). */
const slow: GroupSpecs<"slow"> = {
  perHostDay: {
    kind: "number",
    sweep: { lo: 0, hi: 0.5 },
    min: 0,
    max: 10,
    label: "Slow episodes",
    unit: "per host-day",
    help: "Episodes per host per day in which a host stays alive but runs slow (a throttled GPU, a flapping link); 0 = none.",
    since: 5,
    knob: { section: "slow" },
  },
  medianMinutes: {
    kind: "number",
    sweep: { lo: 1, hi: 240, log: true },
    min: 0.01,
    max: 10_080,
    label: "Episode length (median)",
    unit: "min",
    help: "Each episode's length is lognormal with this median (Greyhound: ~10–25 min typical, up to hours).",
    since: 5,
    knob: { section: "slow", enabledWhen: (s) => s.slow.perHostDay > 0 },
  },
  sigma: {
    kind: "number",
    sweep: { lo: 0, hi: 2 },
    min: 0,
    max: 4,
    label: "Length spread (σ)",
    help: "σ of the length's logarithm; 0 = every episode lasts the median. The mean is median × e^(σ²/2).",
    since: 5,
    knob: { section: "slow", enabledWhen: (s) => s.slow.perHostDay > 0 },
  },
  factor: {
    kind: "number",
    sweep: { lo: 1, hi: 4 },
    min: 1,
    max: 100,
    label: "Slowdown",
    unit: "×",
    help: "While slow, that host's steps take this many times as long; a synchronous step waits for the slowest host.",
    since: 5,
    knob: { section: "slow", enabledWhen: (s) => s.slow.perHostDay > 0 },
  },
  evictAfterMinutes: {
    smallest: 0.01,
    kind: "number",
    sweep: { lo: 1, hi: 120, log: true },
    min: 0,
    max: 1440,
    label: "Evict after",
    unit: "min",
    help: "A host still slow this long into its episode is evicted: a host failure found at once (a replica failure for FT-HSDP); 0 = never.",
    since: 5,
    knob: { section: "slow", enabledWhen: (s) => s.slow.perHostDay > 0 },
  },
};

/** Whether the scenario runs DiLoCo (its group's knobs take input only then). */
const runsDiloco = (s: Scenario) => (s.policies as readonly string[]).includes("diloco");

/** §7: semi-synchronous training (DiLoCo, Streaming DiLoCo). */
const diloco: GroupSpecs<"diloco"> = {
  syncEvery: {
    kind: "int",
    sweep: { lo: 1, hi: 1000, log: true },
    min: 1,
    max: 100_000,
    label: "Sync every (H)",
    unit: "steps",
    help: "Inner steps each replica takes alone between two outer syncs; 1 is data parallelism's cadence.",
    since: 6,
    knob: { section: "diloco", enabledWhen: runsDiloco },
  },
  syncSeconds: {
    kind: "number",
    sweep: { lo: 0, hi: 600 },
    min: 0,
    max: 86_400,
    label: "Outer sync (T)",
    unit: "s",
    help: "One outer sync: the all-reduce of the pseudo-gradients among the round's participants and the outer step.",
    since: 6,
    knob: { section: "diloco", enabledWhen: runsDiloco },
  },
  overlapSteps: {
    kind: "int",
    sweep: { lo: 0, hi: 50 },
    min: 0,
    max: 99_999,
    label: "Overlap (τ)",
    unit: "steps",
    help: "Streaming DiLoCo: the sync runs while the next τ inner steps compute, so replicas block for max(0, T − τ·step); below H.",
    since: 6,
    knob: { section: "diloco", enabledWhen: runsDiloco },
  },
  stepEquivalence: {
    kind: "number",
    sweep: { lo: 0.5, hi: 1 },
    min: 0,
    max: 1,
    minExclusive: true,
    label: "Step equivalence (q)",
    help: "What one inner step is worth in synchronous steps of progress (a convergence penalty): shown and applied, not simulated.",
    since: 6,
    knob: { section: "diloco", enabledWhen: runsDiloco },
  },
};

/** Every field, one table per group (GROUPS' order): validation, messages, knobs, the README table and the link all read it. */
export const FIELD_SPECS: { [G in ScenarioGroup]: GroupSpecs<G> } = {
  cluster,
  training,
  failures,
  detection,
  sync,
  ft,
  spares,
  inMemory,
  hotSpare,
  slow,
  diloco,
};
