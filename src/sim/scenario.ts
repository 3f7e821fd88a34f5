/**
 * Scenario v2: the public contract of the explorer (DESIGN.md, SIMULATION.md §1 and §3).
 *
 * Every field is described once, in FIELD_SPECS: its group, kind, range, unit and a label. The
 * zod schemas, the error messages, the UI's knobs and the README's table all derive from it, so a
 * range can never disagree between the validator and the slider that feeds it. A list field
 * (`failures.causes`) describes its entries with the same specs, so an entry's error names the
 * entry and the field: `failures.causes[3].share: ...`.
 *
 * Version 1 is version 2 with the §3 fields at their defaults, which reproduce it exactly. So a
 * scenario's `version` is what its content needs: 1 when every §3 field is at its default (a
 * version-1 file or link, completed with those defaults), 2 when it uses a §3 setting. Derived,
 * not declared: an input may say 1 or 2, but the same content always carries the same label, so
 * a link or file round-trips exactly whichever way it was written, and old links need no tag.
 */
import * as z from "zod/mini";
import "./zodSetup.ts";
import { MAX_POLICIES, POLICY_KEYS } from "./policyKeys.ts";
import {
  DEFAULT_SCENARIO,
  type FailureCause,
  type FailureCauseInput,
  GROUPS,
  MAX_CAUSES,
  MAX_EXPECTED_FAILURES,
  SCENARIO_VERSION,
  type Scenario,
  type ScenarioGroup,
  type ScenarioInput,
  type ScenarioVersion,
} from "./scenario/types.ts";

export * from "./scenario/types.ts";

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
}
interface EnumSpec {
  kind: "enum";
  values: readonly string[];
  /** Values a version-1 scenario may not use (they came with version 2). */
  valuesSince2?: readonly string[];
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
interface Described {
  label: string;
  unit?: string;
  help: string;
  /** Came with version 2: a version-1 scenario may not set it. */
  since2?: true;
  /** Came with version 3 (SIMULATION.md §4): setting it makes the scenario version 3. */
  since3?: true;
}
/** A field an entry of a list may have; `optionalDefault` is used when the entry leaves it out. */
export type ScalarSpec = (NumberSpec | EnumSpec | BoolSpec | TextSpec) &
  Described & { optionalDefault?: boolean | number | string };
export type FieldSpec = (NumberSpec | EnumSpec | BoolSpec | TextSpec | ListSpec) & Described;

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
    hostsPerRack: {
      kind: "int",
      min: 1,
      max: 1024,
      label: "Hosts per rack",
      help: "Hosts one rack-scope failure takes down together (a ToR switch, a rack's power); hosts must divide by it.",
      since2: true,
    },
    placement: {
      kind: "enum",
      values: ["packed", "striped"],
      label: "Placement",
      help: "Packed: a replica is a block of adjacent hosts. Striped: host h serves replica h mod R, so one rack touches many replicas.",
      since2: true,
    },
  },
  training: {
    days: {
      smallest: 0.001,
      kind: "number",
      min: 0,
      max: 365,
      minExclusive: true,
      label: "Horizon",
      unit: "days",
      help: "Simulated wall time.",
    },
    stepSeconds: {
      smallest: 0.001,
      kind: "number",
      min: 0,
      max: 3600,
      minExclusive: true,
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
      values: ["poisson", "fixed", "weibull"],
      valuesSince2: ["weibull"],
      label: "Arrivals",
      help: "Random (Poisson), one every 1/λ, or a Weibull renewal process with mean 1/λ.",
    },
    weibullShape: {
      kind: "number",
      min: 0.2,
      max: 5,
      label: "Weibull shape (k)",
      help: "k < 1: bursts of correlated failures; k = 1: exponential; k > 1: more regular than random.",
      since2: true,
    },
    hangFraction: {
      kind: "number",
      min: 0,
      max: 1,
      label: "Hang fraction",
      help: "Share of failures that hang instead of dying (0 when causes are listed: each cause says).",
    },
    causes: {
      kind: "list",
      maxItems: MAX_CAUSES,
      itemNoun: "cause",
      label: "Cause mix",
      help: "What each failure is, drawn by share; empty = every failure strikes one host.",
      since2: true,
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
    },
  },
  detection: {
    failStopSeconds: {
      smallest: 0.001,
      kind: "number",
      min: 0,
      max: 86_400,
      label: "Fail-stop detection",
      unit: "s",
      help: "Time to notice a dead process.",
    },
    hangSeconds: {
      smallest: 0.001,
      kind: "number",
      min: 0,
      max: 86_400,
      label: "Hang detection",
      unit: "s",
      help: "Watchdog timeout (NCCL default 600 s).",
    },
  },
  sync: {
    restartSeconds: {
      smallest: 0.001,
      kind: "number",
      min: 0,
      max: 86_400,
      label: "Job restart",
      unit: "s",
      help: "Reschedule, init, load checkpoint.",
    },
    checkpointMinutes: {
      smallest: 0.01,
      kind: "number",
      min: 0,
      max: 10_080,
      label: "Checkpoint interval",
      unit: "min",
      help: "0 = checkpoint every step at no cost (no rollback).",
    },
    checkpointWriteSeconds: {
      smallest: 0.001,
      kind: "number",
      min: 0,
      max: 3600,
      label: "Checkpoint write",
      unit: "s",
      help: "Blocking write time.",
    },
  },
  ft: {
    reconfigureSeconds: {
      smallest: 0.001,
      kind: "number",
      min: 0,
      max: 86_400,
      label: "FTAR reconfigure",
      unit: "s",
      help: "Quorum shrink, added to the detection stall.",
    },
    replicaRestartSeconds: {
      smallest: 0.001,
      kind: "number",
      min: 0,
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
      smallest: 0.001,
      kind: "number",
      min: 0,
      max: 86_400,
      label: "Catch-up time",
      unit: "s",
      help: "Fetch weights and optimizer state from a peer.",
    },
    rejoinSeconds: {
      smallest: 0.001,
      kind: "number",
      min: 0,
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
    hangTimeoutSeconds: {
      smallest: 0.001,
      kind: "number",
      min: 0,
      max: 86_400,
      label: "FTAR hang timeout",
      unit: "s",
      help: "FTAR drops a hung member after min(this, hang detection); 0 = none (torchft: 60 s).",
      since2: true,
    },
    checkpointMinutes: {
      smallest: 0.01,
      kind: "number",
      min: 0,
      max: 10_080,
      label: "Checkpoint interval",
      unit: "min",
      help: "Used only to recover from a job-scope failure; 0 = such a failure loses no work (optimistic).",
      since2: true,
    },
    checkpointWriteSeconds: {
      smallest: 0.001,
      kind: "number",
      min: 0,
      max: 3600,
      label: "Checkpoint write",
      unit: "s",
      help: "Blocking write: a global stall.",
      since2: true,
    },
    stepOverheadPercent: {
      kind: "number",
      min: 0,
      max: 1000,
      maxExclusive: true,
      label: "FTAR step overhead",
      unit: "%",
      help: "How much slower a step is with FTAR than with NCCL's all-reduce (the paper: parity at 8 ranks, near parity at 16).",
      since3: true,
    },
    restrike: {
      kind: "enum",
      values: ["stall", "quiet"],
      label: "Restrike",
      help: "A failure of a replica already outside the quorum: stall = everyone waits again (§1's rule); quiet = only that replica starts over.",
      since3: true,
    },
  },
  spares: {
    pool: {
      kind: "enum",
      values: ["unlimited", "limited"],
      label: "Spare pool",
      help: "Whether replacement hosts can run out.",
      since2: true,
    },
    hosts: {
      kind: "int",
      min: 0,
      max: 100_000,
      label: "Spare hosts",
      help: "Spares at the start (with a limited pool).",
      since2: true,
    },
    repairHours: {
      smallest: 0.001,
      kind: "number",
      min: 0,
      max: 8760,
      minExclusive: true,
      label: "Repair time",
      unit: "h",
      help: "A broken host is repaired this long after its failure and joins the pool.",
      since2: true,
    },
  },
  inMemory: {
    checkpointMinutes: {
      smallest: 0.01,
      kind: "number",
      min: 0,
      max: 10_080,
      label: "In-memory checkpoint interval",
      unit: "min",
      help: "Training between two copies into a peer's CPU memory; 0 = every step at no cost (nothing rolls back).",
      since3: true,
    },
    writeSeconds: {
      smallest: 0.001,
      kind: "number",
      min: 0,
      max: 3600,
      label: "In-memory write",
      unit: "s",
      help: "Blocking copy into a peer host's CPU memory (another rack).",
      since3: true,
    },
    restartSeconds: {
      smallest: 0.001,
      kind: "number",
      min: 0,
      max: 86_400,
      label: "Restart from memory",
      unit: "s",
      help: "Restart after a host or rack failure: no storage load.",
      since3: true,
    },
    persistEvery: {
      kind: "int",
      min: 1,
      max: 100_000,
      label: "Persist every",
      help: "Every n-th in-memory checkpoint is also saved to storage in the background: what a job-scope failure rolls back to.",
      since3: true,
    },
  },
  hotSpare: {
    standbys: {
      kind: "int",
      min: 0,
      max: 100_000,
      label: "Standby hosts",
      help: "Warm hosts that hold the job's code and process groups and do not train (GB200 NVL72 racks keep 8 of 72 GPUs warm).",
      since3: true,
    },
    migrateSeconds: {
      smallest: 0.001,
      kind: "number",
      min: 0,
      max: 86_400,
      label: "Live migration",
      unit: "s",
      help: "Standbys take over the broken slots; the lost ranks' state is rebuilt from their data-parallel peers. The whole job waits.",
      since3: true,
    },
    refillMinutes: {
      smallest: 0.001,
      kind: "number",
      min: 0,
      max: 525_600,
      label: "Standby refill",
      unit: "min",
      help: "Until a used standby's replacement is prepared and ready.",
      since3: true,
    },
  },
};

// One formatter for every message, made at the first one (it loads ICU's locale data, which a
// run that refuses nothing never needs): toLocaleString with options makes one per call.
let numberFormat: Intl.NumberFormat | undefined;
function fmt(n: number): string {
  if (!numberFormat) numberFormat = new Intl.NumberFormat("en-US", { maximumFractionDigits: 6 });
  return numberFormat.format(n);
}

/** "an integer in [1, 1,000,000]" — the allowed range, as every error message states it. */
export function describeAllowed(spec: FieldSpec | ScalarSpec): string {
  switch (spec.kind) {
    case "enum":
      return `one of ${spec.values.map((v) => `"${v}"`).join(", ")}`;
    case "bool":
      return "true or false";
    case "text":
      return `a string of ${spec.minLength}–${spec.maxLength} characters`;
    case "list":
      return `a list of at most ${spec.maxItems} ${spec.itemNoun}s {${Object.keys(spec.item).join(", ")}}`;
    default: {
      const what = spec.kind === "int" ? "an integer" : "a number";
      const close = spec.maxExclusive ? ")" : "]";
      if (spec.smallest !== undefined) {
        const range = `${what} in [${fmt(spec.smallest)}, ${fmt(spec.max)}${close}`;
        return spec.minExclusive ? range : `${fmt(spec.min)} or ${range}`;
      }
      return `${what} in ${spec.minExclusive ? "(" : "["}${fmt(spec.min)}, ${fmt(spec.max)}${close}`;
    }
  }
}

/** Whether a finite number is in the field's allowed range (describeAllowed says it in words). */
export function inAllowedRange(spec: NumberSpec, v: number): boolean {
  const { min, max, minExclusive, maxExclusive, smallest } = spec;
  if (v > max || v < min || (minExclusive && v === min) || (maxExclusive && v === max)) return false;
  return smallest === undefined || v === min || v >= smallest;
}

function scalarSchema(spec: ScalarSpec | FieldSpec): z.ZodMiniType {
  // Worded when an input is refused, not when the schema is built: the number format loads ICU's
  // locale data (~20 ms), a cost every page load and every CLI run paid for messages rarely shown.
  const error = () => `must be ${describeAllowed(spec)}`;
  switch (spec.kind) {
    case "enum":
      return z.enum(spec.values as [string, ...string[]], { error });
    case "bool":
      return z.boolean({ error });
    case "text":
      return z
        .string({ error })
        .check(z.minLength(spec.minLength, { error }), z.maxLength(spec.maxLength, { error }));
    case "list": {
      const entry = z.strictObject(
        Object.fromEntries(
          Object.entries(spec.item).map(([k, s]) => {
            const field = scalarSchema(s);
            return [k, s.optionalDefault === undefined ? field : z.optional(field)];
          }),
        ),
        { error: `must be an object with fields ${Object.keys(spec.item).join(", ")}` },
      );
      return z.array(entry, { error }).check(z.maxLength(spec.maxItems, { error }));
    }
    default: {
      const finite = z.refine(Number.isFinite, { error });
      const inRange = z.refine<number>((v) => inAllowedRange(spec, v), { error });
      return spec.kind === "int"
        ? z.number({ error }).check(finite, z.refine(Number.isInteger, { error }), inRange)
        : z.number({ error }).check(finite, inRange);
    }
  }
}

function groupSchema(group: ScenarioGroup) {
  const specs = FIELD_SPECS[group] as Record<string, FieldSpec>;
  return z.strictObject(
    Object.fromEntries(Object.entries(specs).map(([k, s]) => [k, z.optional(scalarSchema(s))])),
  );
}

const seedError = "must be an integer in [0, 4,294,967,295]";
const policiesAllowed = `a list of 1–${MAX_POLICIES} distinct keys of ${POLICY_KEYS.map((k) => `"${k}"`).join(", ")}`;
const policyError = `must be one of ${POLICY_KEYS.map((k) => `"${k}"`).join(", ")}`;
const inputSchema = z.strictObject({
  version: z.optional(
    z.union([z.literal(1), z.literal(2), z.literal(SCENARIO_VERSION)], {
      error: `must be 1, 2 or ${SCENARIO_VERSION} (the scenario versions)`,
    }),
  ),
  policies: z.optional(
    z
      .array(z.enum(POLICY_KEYS as unknown as [string, ...string[]], { error: policyError }), {
        error: `must be ${policiesAllowed}`,
      })
      .check(
        z.minLength(1, { error: `must be ${policiesAllowed}` }),
        z.maxLength(MAX_POLICIES, { error: `must be ${policiesAllowed}` }),
      ),
  ),
  name: z.optional(
    z
      .string({ error: "must be a string of at most 120 characters" })
      .check(z.maxLength(120, { error: "must be a string of at most 120 characters" })),
  ),
  seed: z.optional(
    z
      .number({ error: seedError })
      .check(z.refine((v) => Number.isInteger(v) && v >= 0 && v <= 0xffff_ffff, { error: seedError })),
  ),
  ...Object.fromEntries(GROUPS.map((g) => [g, z.optional(groupSchema(g))])),
});

export class ScenarioError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("; "));
    this.name = "ScenarioError";
  }
}

function specAt(path: readonly PropertyKey[]): FieldSpec | undefined {
  const group = FIELD_SPECS[path[0] as ScenarioGroup] as Record<string, FieldSpec> | undefined;
  return group?.[String(path[1])];
}

function allowedKeys(path: readonly PropertyKey[]): string[] {
  if (path.length === 0) return ["version", "name", "seed", "policies", ...GROUPS];
  if (path.length === 1) return Object.keys(FIELD_SPECS[path[0] as ScenarioGroup] ?? {});
  const spec = specAt(path);
  return spec?.kind === "list" ? Object.keys(spec.item) : [];
}

function describeValue(v: unknown): string {
  if (v === undefined) return "nothing";
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

/** `failures.causes[3].share`: list indices in brackets, as a person would write them. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((k, i) => (typeof k === "number" ? `[${k}]` : i === 0 ? String(k) : `.${String(k)}`))
    .join("");
}

function formatIssues(issues: z.core.$ZodIssue[], input: unknown): string[] {
  return issues.flatMap((issue) => {
    const path = formatPath(issue.path);
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map(
        (k) =>
          `${path ? `${path}.` : ""}${k}: unknown field (allowed: ${allowedKeys(issue.path).join(", ")})`,
      );
    }
    if (issue.path.length === 1 && GROUPS.includes(issue.path[0] as ScenarioGroup)) {
      return [`${path}: must be an object with fields ${allowedKeys(issue.path).join(", ")}`];
    }
    const value = valueAt(input, issue.path);
    const got =
      issue.code === "too_big" && Array.isArray(value) ? `a list of ${value.length}` : describeValue(value);
    return [`${path || "scenario"}: got ${got}; ${issue.message}`];
  });
}

/** Checks that hold between fields; each message names the fields and what would be allowed. */
function consistencyProblems(s: Scenario): string[] {
  const problems: string[] = [];
  s.policies.forEach((p, i) => {
    if (s.policies.indexOf(p) < i)
      problems.push(`policies[${i}]: got "${p}" a second time; must be ${policiesAllowed}`);
  });
  const { gpus, gpusPerHost, replicas, hostsPerRack } = s.cluster;
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
  if (hostsPerRack > hosts) {
    problems.push(
      `cluster.hostsPerRack: got ${fmt(hostsPerRack)}; must be at most the number of hosts (${fmt(hosts)})`,
    );
  } else if (hosts % hostsPerRack !== 0) {
    problems.push(
      `cluster.hostsPerRack: ${fmt(hosts)} hosts do not split into racks of ${fmt(hostsPerRack)}; must divide the host count`,
    );
  }
  if (s.ft.minReplicas > replicas) {
    problems.push(
      `ft.minReplicas: got ${fmt(s.ft.minReplicas)}; must be an integer in [1, ${fmt(replicas)}] (cluster.replicas)`,
    );
  }
  const { causes, hangFraction } = s.failures;
  causes.forEach((c, i) => {
    if (c.scope === "job" && c.newHost)
      problems.push(
        `failures.causes[${i}].newHost: got true; must be false for a job-scope cause (it strikes no host)`,
      );
  });
  if (causes.length > 0 && hangFraction !== 0) {
    problems.push(
      `failures.hangFraction: got ${fmt(hangFraction)}; must be 0 when failures.causes is not empty (each cause says whether it hangs)`,
    );
  }
  const expected = hosts * s.failures.perHostDay * s.training.days;
  if (expected > MAX_EXPECTED_FAILURES) {
    const maxRate = MAX_EXPECTED_FAILURES / (hosts * s.training.days);
    problems.push(
      `failures.perHostDay: ${fmt(expected)} expected failures over ${fmt(s.training.days)} days is too many to simulate; with ${fmt(hosts)} hosts the rate must be at most ${fmt(maxRate)}`,
    );
  } else if (expected * hostsPerEvent(s) > MAX_EXPECTED_FAILURES) {
    // A rack failure strikes each of its hosts: bound the host strikes, not only the events.
    problems.push(
      `cluster.hostsPerRack: ${fmt(expected * hostsPerEvent(s))} expected host strikes over ${fmt(s.training.days)} days is too many to simulate (at most ${fmt(MAX_EXPECTED_FAILURES)}); lower the rack size, the rack causes' share or failures.perHostDay`,
    );
  }
  return problems;
}

/** The mean number of hosts one failure event strikes (1 without causes). */
export function hostsPerEvent(s: Scenario): number {
  const { causes } = s.failures;
  if (causes.length === 0) return 1;
  let total = 0;
  let hosts = 0;
  for (const c of causes) {
    total += c.share;
    hosts += c.share * (c.scope === "host" ? 1 : c.scope === "rack" ? s.cluster.hostsPerRack : 0);
  }
  return hosts / total;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** An entry completed from its optional fields' defaults: a job-scope cause breaks no host. */
function completeCause(c: FailureCauseInput): FailureCause {
  return {
    name: c.name,
    share: c.share,
    scope: c.scope,
    hang: c.hang ?? false,
    newHost: c.newHost ?? c.scope !== "job",
  };
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
  const partial = parsed.data as ScenarioInput & {
    failures?: { causes?: FailureCauseInput[] };
  };
  const d = DEFAULT_SCENARIO;
  const scenario: Scenario = {
    version: 1,
    name: partial.name ?? d.name,
    seed: partial.seed ?? d.seed,
    policies: [...(partial.policies ?? d.policies)],
    cluster: { ...d.cluster, ...partial.cluster },
    training: { ...d.training, ...partial.training },
    failures: {
      ...d.failures,
      ...partial.failures,
      causes: (partial.failures?.causes ?? d.failures.causes).map(completeCause),
    },
    detection: { ...d.detection, ...partial.detection },
    sync: { ...d.sync, ...partial.sync },
    ft: { ...d.ft, ...partial.ft },
    spares: { ...d.spares, ...partial.spares },
    inMemory: { ...d.inMemory, ...partial.inMemory },
    hotSpare: { ...d.hotSpare, ...partial.hotSpare },
  };
  scenario.version = versionOf(scenario);
  const problems = consistencyProblems(scenario);
  if (problems.length > 0) throw new ScenarioError(problems);
  return scenario;
}

/** Value equality for field values: numbers, strings, booleans and lists of plain entries. */
function sameValue(a: unknown, b: unknown): boolean {
  return a === b || (Array.isArray(a) && Array.isArray(b) && JSON.stringify(a) === JSON.stringify(b));
}

/** The fields that mark a version (since2 / since3, and enums with version-2 values), listed once. */
const VERSIONED: { group: ScenarioGroup; key: string; spec: FieldSpec }[] = GROUPS.flatMap((group) =>
  Object.entries(FIELD_SPECS[group] as Record<string, FieldSpec>)
    .filter(([, spec]) => spec.since2 || spec.since3 || (spec.kind === "enum" && spec.valuesSince2))
    .map(([key, spec]) => ({ group, key, spec })),
);

function fieldOf(s: Scenario, group: ScenarioGroup, key: string): unknown {
  return (s[group] as unknown as Record<string, unknown>)[key];
}

/** True when the scenario uses a setting version 1 does not have (a §3 field off its default). */
export function usesVersion2(s: Scenario): boolean {
  for (const { group, key, spec } of VERSIONED) {
    const v = fieldOf(s, group, key);
    if (spec.since2 && !sameValue(v, fieldOf(DEFAULT_SCENARIO, group, key))) return true;
    if (spec.kind === "enum" && spec.valuesSince2?.includes(v as string)) return true;
  }
  return false;
}

/** True when the scenario uses a §4 setting: other policies than the default, or a §4 field off its default. */
export function usesVersion3(s: Scenario): boolean {
  if (!sameValue(s.policies, DEFAULT_SCENARIO.policies)) return true;
  for (const { group, key, spec } of VERSIONED)
    if (spec.since3 && !sameValue(fieldOf(s, group, key), fieldOf(DEFAULT_SCENARIO, group, key))) return true;
  return false;
}

/** The version a scenario's content needs (file comment). */
export function versionOf(s: Scenario): ScenarioVersion {
  return usesVersion3(s) ? 3 : usesVersion2(s) ? 2 : 1;
}

/**
 * Only the fields that differ from the defaults: what a share link carries. `version` is left
 * out (it follows from the content), so a scenario whose §3 fields are at their defaults gives
 * exactly the diff version 1 gave, and re-sharing an old link gives the old link.
 */
export function diffFromDefaults(s: Scenario): ScenarioInput {
  const out: Record<string, unknown> = {};
  if (s.name !== DEFAULT_SCENARIO.name) out.name = s.name;
  if (s.seed !== DEFAULT_SCENARIO.seed) out.seed = s.seed;
  if (!sameValue(s.policies, DEFAULT_SCENARIO.policies)) out.policies = [...s.policies];
  for (const g of GROUPS) {
    const cur = s[g] as unknown as Record<string, unknown>;
    const def = DEFAULT_SCENARIO[g] as unknown as Record<string, unknown>;
    const changed = Object.fromEntries(Object.entries(cur).filter(([k, v]) => !sameValue(v, def[k])));
    if (Object.keys(changed).length > 0) out[g] = changed;
  }
  return out as ScenarioInput;
}

/** The engine's own module (derived.ts) keeps zod out of the CLI's worker threads. */
export { derived } from "./derived.ts";
