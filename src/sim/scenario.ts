/**
 * Scenario v1: the public contract of the explorer (DESIGN.md, SIMULATION.md §1).
 *
 * Every field is described once, in FIELD_SPECS: its group, kind, range, unit and a label. The
 * zod schemas, the error messages, the UI's knobs and the README's table all derive from it, so a
 * range can never disagree between the validator and the slider that feeds it.
 */
import { z } from "zod";
import "./zodSetup.ts";

export const SCENARIO_VERSION = 1 as const;

export type Arrivals = "poisson" | "fixed";
export type CatchUp = "nonBlocking" | "blocking";

export interface Scenario {
  version: 1;
  name: string;
  seed: number;
  cluster: { gpus: number; gpusPerHost: number; replicas: number };
  training: { days: number; stepSeconds: number };
  failures: { perHostDay: number; arrivals: Arrivals; hangFraction: number };
  detection: { failStopSeconds: number; hangSeconds: number };
  sync: { restartSeconds: number; checkpointMinutes: number; checkpointWriteSeconds: number };
  ft: {
    reconfigureSeconds: number;
    replicaRestartSeconds: number;
    catchUp: CatchUp;
    catchUpSeconds: number;
    rejoinSeconds: number;
    minReplicas: number;
  };
}

export type ScenarioGroup = "cluster" | "training" | "failures" | "detection" | "sync" | "ft";
export const GROUPS: readonly ScenarioGroup[] = [
  "cluster",
  "training",
  "failures",
  "detection",
  "sync",
  "ft",
];

/** A partial scenario: any field may be left out and is then taken from the defaults. */
export type ScenarioInput = {
  version?: number;
  name?: string;
  seed?: number;
} & { [G in ScenarioGroup]?: Partial<Scenario[G]> };

/** The FT-HSDP paper's headline (SIMULATION.md "Worked check"), with Poisson arrivals. */
export const DEFAULT_SCENARIO: Scenario = {
  version: 1,
  name: "FT-HSDP headline, Poisson arrivals",
  seed: 1,
  cluster: { gpus: 98_304, gpusPerHost: 8, replicas: 12 },
  training: { days: 30, stepSeconds: 10 },
  // 1/λ = 18 min on 12,288 hosts: r_f = 86400 / (1080 · 12288) = 0.00651 per host-day.
  failures: { perHostDay: 0.00651, arrivals: "poisson", hangFraction: 0 },
  detection: { failStopSeconds: 60, hangSeconds: 600 },
  sync: { restartSeconds: 540, checkpointMinutes: 0, checkpointWriteSeconds: 0 },
  ft: {
    reconfigureSeconds: 0,
    replicaRestartSeconds: 420,
    catchUp: "nonBlocking",
    catchUpSeconds: 0,
    rejoinSeconds: 120,
    minReplicas: 1,
  },
};

/** Expected failures over the horizon above which a run is refused: keeps every input tab-safe. */
export const MAX_EXPECTED_FAILURES = 1_000_000;

export interface NumberSpec {
  kind: "int" | "number";
  min: number;
  max: number;
  /** true when the lower bound itself is not allowed (e.g. days > 0). */
  minExclusive?: boolean;
  /**
   * The smallest meaningful value above `min`: values in (min, smallest) are refused. Time
   * intervals have one, because a subnormal interval is no interval: 1e-320 minutes between
   * checkpoints divides the horizon into Infinity cycles and every metric reads NaN. Rates and
   * probabilities have none: a tiny rate just means no failure, and version-1 links carry them.
   */
  smallest?: number;
}
interface EnumSpec {
  kind: "enum";
  values: readonly string[];
}
export type FieldSpec = (NumberSpec | EnumSpec) & { label: string; unit?: string; help: string };

export const FIELD_SPECS: { [G in ScenarioGroup]: { [K in keyof Scenario[G]]: FieldSpec } } = {
  cluster: {
    gpus: { kind: "int", min: 1, max: 1_000_000, label: "GPUs", help: "All GPUs in the job." },
    gpusPerHost: {
      kind: "int",
      min: 1,
      max: 64,
      label: "GPUs per host",
      help: "A failure takes down one host.",
    },
    replicas: {
      kind: "int",
      min: 1,
      max: 100_000,
      label: "Replicas (R)",
      help: "Data-parallel replicas; hosts must divide by R.",
    },
  },
  training: {
    days: {
      kind: "number",
      min: 0,
      max: 365,
      minExclusive: true,
      smallest: 0.001,
      label: "Horizon",
      unit: "days",
      help: "Simulated wall time.",
    },
    stepSeconds: {
      kind: "number",
      min: 0,
      max: 3600,
      minExclusive: true,
      smallest: 0.001,
      label: "Step time",
      unit: "s",
      help: "One training step; counts steps and paces the step views.",
    },
  },
  failures: {
    perHostDay: {
      kind: "number",
      min: 0,
      max: 10,
      label: "Failure rate",
      unit: "per host-day",
      help: "Failures per host per day (r_f).",
    },
    arrivals: {
      kind: "enum",
      values: ["poisson", "fixed"],
      label: "Arrivals",
      help: "Random (Poisson) or one every 1/λ.",
    },
    hangFraction: {
      kind: "number",
      min: 0,
      max: 1,
      label: "Hang fraction",
      help: "Share of failures that hang instead of dying.",
    },
  },
  detection: {
    failStopSeconds: {
      kind: "number",
      min: 0,
      smallest: 0.001,
      max: 86_400,
      label: "Fail-stop detection",
      unit: "s",
      help: "Time to notice a dead process.",
    },
    hangSeconds: {
      kind: "number",
      min: 0,
      smallest: 0.001,
      max: 86_400,
      label: "Hang detection",
      unit: "s",
      help: "Watchdog timeout (NCCL default 600 s).",
    },
  },
  sync: {
    restartSeconds: {
      kind: "number",
      min: 0,
      smallest: 0.001,
      max: 86_400,
      label: "Job restart",
      unit: "s",
      help: "Reschedule, init, load checkpoint.",
    },
    checkpointMinutes: {
      kind: "number",
      min: 0,
      smallest: 0.01,
      max: 10_080,
      label: "Checkpoint interval",
      unit: "min",
      help: "0 = checkpoint every step at no cost (no rollback).",
    },
    checkpointWriteSeconds: {
      kind: "number",
      min: 0,
      smallest: 0.001,
      max: 3600,
      label: "Checkpoint write",
      unit: "s",
      help: "Blocking write time.",
    },
  },
  ft: {
    reconfigureSeconds: {
      kind: "number",
      min: 0,
      smallest: 0.001,
      max: 86_400,
      label: "FTAR reconfigure",
      unit: "s",
      help: "Quorum shrink, added to the detection stall.",
    },
    replicaRestartSeconds: {
      kind: "number",
      min: 0,
      smallest: 0.001,
      max: 86_400,
      label: "Replica restart",
      unit: "s",
      help: "Failed replica down; others train.",
    },
    catchUp: {
      kind: "enum",
      values: ["nonBlocking", "blocking"],
      label: "Catch-up mode",
      help: "Do the others wait while it fetches state?",
    },
    catchUpSeconds: {
      kind: "number",
      min: 0,
      smallest: 0.001,
      max: 86_400,
      label: "Catch-up time",
      unit: "s",
      help: "Fetch weights and optimizer state from a peer.",
    },
    rejoinSeconds: {
      kind: "number",
      min: 0,
      smallest: 0.001,
      max: 86_400,
      label: "Rejoin",
      unit: "s",
      help: "Global stall while the ring re-forms.",
    },
    minReplicas: {
      kind: "int",
      min: 1,
      max: 100_000,
      label: "Min replicas",
      help: "Below this many healthy replicas, training stops.",
    },
  },
};

const fmt = (n: number): string => n.toLocaleString("en-US", { maximumFractionDigits: 6 });

/** "an integer in [1, 1,000,000]" — the allowed range, as every error message states it. */
export function describeAllowed(spec: FieldSpec): string {
  if (spec.kind === "enum") return `one of ${spec.values.map((v) => `"${v}"`).join(", ")}`;
  const what = spec.kind === "int" ? "an integer" : "a number";
  if (spec.smallest !== undefined) {
    const range = `${what} in [${fmt(spec.smallest)}, ${fmt(spec.max)}]`;
    return spec.minExclusive ? range : `${fmt(spec.min)} or ${range}`;
  }
  return `${what} in ${spec.minExclusive ? "(" : "["}${fmt(spec.min)}, ${fmt(spec.max)}]`;
}

/** Whether a finite number is in the field's allowed range (describeAllowed says it in words). */
export function inAllowedRange(spec: NumberSpec, v: number): boolean {
  const { min, max, minExclusive, smallest } = spec;
  if (v > max || v < min || (minExclusive && v === min)) return false;
  return smallest === undefined || v === min || v >= smallest;
}

function fieldSchema(spec: FieldSpec): z.ZodType {
  const error = `must be ${describeAllowed(spec)}`;
  if (spec.kind === "enum") return z.enum(spec.values as [string, ...string[]], { error });
  let n = z.number({ error }).refine(Number.isFinite, { error });
  if (spec.kind === "int") n = n.refine(Number.isInteger, { error });
  return n.refine((v) => inAllowedRange(spec, v), { error });
}

function groupSchema(group: ScenarioGroup) {
  const specs = FIELD_SPECS[group] as Record<string, FieldSpec>;
  return z.strictObject(
    Object.fromEntries(Object.entries(specs).map(([k, s]) => [k, fieldSchema(s).optional()])),
  );
}

const seedError = "must be an integer in [0, 4,294,967,295]";
const inputSchema = z.strictObject({
  version: z.literal(SCENARIO_VERSION, { error: "must be 1 (the only scenario version)" }).optional(),
  name: z
    .string({ error: "must be a string of at most 120 characters" })
    .max(120, { error: "must be a string of at most 120 characters" })
    .optional(),
  seed: z
    .number({ error: seedError })
    .refine((v) => Number.isInteger(v) && v >= 0 && v <= 0xffff_ffff, { error: seedError })
    .optional(),
  ...Object.fromEntries(GROUPS.map((g) => [g, groupSchema(g).optional()])),
});

export class ScenarioError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("; "));
    this.name = "ScenarioError";
  }
}

function allowedKeys(path: readonly PropertyKey[]): string[] {
  if (path.length === 0) return ["version", "name", "seed", ...GROUPS];
  const group = path[0] as ScenarioGroup;
  return Object.keys(FIELD_SPECS[group] ?? {});
}

function describeValue(v: unknown): string {
  if (typeof v === "string") return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (v === null || typeof v !== "object") return String(v);
  return Array.isArray(v) ? "an array" : "an object";
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const k of path)
    v = v !== null && typeof v === "object" ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  return v;
}

function formatIssues(issues: z.core.$ZodIssue[], input: unknown): string[] {
  return issues.flatMap((issue) => {
    const path = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map(
        (k) =>
          `${path ? `${path}.` : ""}${k}: unknown field (allowed: ${allowedKeys(issue.path).join(", ")})`,
      );
    }
    if (issue.path.length === 1 && GROUPS.includes(issue.path[0] as ScenarioGroup)) {
      return [`${path}: must be an object with fields ${allowedKeys(issue.path).join(", ")}`];
    }
    return [`${path || "scenario"}: got ${describeValue(valueAt(input, issue.path))}; ${issue.message}`];
  });
}

/** Checks that hold between fields; each message names the fields and what would be allowed. */
function consistencyProblems(s: Scenario): string[] {
  const problems: string[] = [];
  const { gpus, gpusPerHost, replicas } = s.cluster;
  if (gpus % gpusPerHost !== 0) {
    problems.push(
      `cluster.gpus: ${fmt(gpus)} GPUs do not split into hosts of ${gpusPerHost}; must be a multiple of cluster.gpusPerHost`,
    );
    return problems;
  }
  const hosts = gpus / gpusPerHost;
  if (replicas > hosts) {
    problems.push(
      `cluster.replicas: got ${fmt(replicas)}; must be at most the number of hosts (${fmt(hosts)})`,
    );
  } else if (hosts % replicas !== 0) {
    problems.push(
      `cluster.replicas: ${fmt(hosts)} hosts do not split into ${fmt(replicas)} equal replicas; must divide the host count`,
    );
  }
  if (s.ft.minReplicas > replicas) {
    problems.push(
      `ft.minReplicas: got ${fmt(s.ft.minReplicas)}; must be an integer in [1, ${fmt(replicas)}] (cluster.replicas)`,
    );
  }
  const expected = hosts * s.failures.perHostDay * s.training.days;
  if (expected > MAX_EXPECTED_FAILURES) {
    const maxRate = MAX_EXPECTED_FAILURES / (hosts * s.training.days);
    problems.push(
      `failures.perHostDay: ${fmt(expected)} expected failures over ${fmt(s.training.days)} days is too many to simulate; with ${fmt(hosts)} hosts the rate must be at most ${fmt(maxRate)}`,
    );
  }
  return problems;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/**
 * Validate a (possibly partial) scenario and complete it from the defaults.
 * Throws ScenarioError listing every problem, each naming its field and the allowed range.
 */
export function parseScenario(input: unknown): Scenario {
  if (!isRecord(input))
    throw new ScenarioError([`scenario: got ${describeValue(input)}; must be a JSON object`]);
  const parsed = inputSchema.safeParse(input);
  if (!parsed.success) throw new ScenarioError(formatIssues(parsed.error.issues, input));
  const partial = parsed.data as ScenarioInput;
  const d = DEFAULT_SCENARIO;
  const scenario: Scenario = {
    version: SCENARIO_VERSION,
    name: partial.name ?? d.name,
    seed: partial.seed ?? d.seed,
    cluster: { ...d.cluster, ...partial.cluster },
    training: { ...d.training, ...partial.training },
    failures: { ...d.failures, ...partial.failures },
    detection: { ...d.detection, ...partial.detection },
    sync: { ...d.sync, ...partial.sync },
    ft: { ...d.ft, ...partial.ft },
  };
  const problems = consistencyProblems(scenario);
  if (problems.length > 0) throw new ScenarioError(problems);
  return scenario;
}

/** Only the fields that differ from the defaults: what a share link carries. */
export function diffFromDefaults(s: Scenario): ScenarioInput {
  const out: Record<string, unknown> = {};
  if (s.name !== DEFAULT_SCENARIO.name) out.name = s.name;
  if (s.seed !== DEFAULT_SCENARIO.seed) out.seed = s.seed;
  for (const g of GROUPS) {
    const cur = s[g] as unknown as Record<string, unknown>;
    const def = DEFAULT_SCENARIO[g] as unknown as Record<string, unknown>;
    const changed = Object.fromEntries(Object.entries(cur).filter(([k, v]) => v !== def[k]));
    if (Object.keys(changed).length > 0) out[g] = changed;
  }
  return out as ScenarioInput;
}

/** Derived quantities every view and the engine agree on. */
export function derived(s: Scenario) {
  const hosts = s.cluster.gpus / s.cluster.gpusPerHost;
  const lambdaPerSecond = (hosts * s.failures.perHostDay) / 86_400;
  return {
    hosts,
    hostsPerReplica: hosts / s.cluster.replicas,
    lambdaPerSecond,
    /** The job's mean time between failures, in seconds (Infinity when nothing fails). */
    mtbfSeconds: lambdaPerSecond > 0 ? 1 / lambdaPerSecond : Number.POSITIVE_INFINITY,
    horizonSeconds: s.training.days * 86_400,
    expectedFailures: lambdaPerSecond * s.training.days * 86_400,
  };
}
