/**
 * What-if sweeps: the scenarios along one axis, each valid by construction (hosts divisible by
 * replicas, min replicas ≤ replicas, expected failures under the simulator's bound), so a sweep
 * never half-fails in the worker. Pure: the worker pool runs what this builds.
 *
 * Every numeric field of the field table (specs.ts) is an axis, and every enumerated one an axis
 * of categories: a field's spec says how it sweeps (`sweep`: range, log or linear). Round 5's
 * eleven axes (cluster size, MTBF, replicas, eight recovery knobs) keep their ids and their own
 * builders, so an old `sw=` link sweeps the same scenarios bit for bit (sweepAxesCompat.test.ts);
 * every other field's axis is named `group.key`.
 *
 * The cause mix (`failures.causes`) is a list, so its axes come from the scenario: each cause i
 * gives `cause.i.share` (its share of all failures, with two causes or more) and `cause.i.scope`
 * (its scope, as categories). An axis names the cause by its place in the list, as the
 * validator's messages do (`failures.causes[i]`), not by its name: a name is free text (it may
 * hold the `,` and `~` that delimit a link, and two causes may share one), while the place is
 * one short number that a link can carry and check. A link whose scenario has no cause i is
 * refused by name (sweepAxisProblem).
 */
import {
  type CauseScope,
  derived,
  type FailureCause,
  FIELD_SPECS,
  type FieldSpec,
  GROUPS,
  MAX_CAUSES,
  MAX_EXPECTED_FAILURES,
  type NumberSpec,
  parseScenario,
  type ScalarSpec,
  type Scenario,
  type ScenarioGroup,
} from "./scenario.ts";

function specMax(spec: FieldSpec | undefined): number {
  return spec && (spec.kind === "int" || spec.kind === "number") ? spec.max : Number.POSITIVE_INFINITY;
}

function specOf(group: ScenarioGroup, key: string): FieldSpec | undefined {
  return (FIELD_SPECS[group] as Record<string, FieldSpec>)[key];
}

/** A recovery or layout knob a person may sweep, with the range used when its value is 0. */
interface KnobAxis {
  group: ScenarioGroup;
  key: string;
  /** Lowest value swept (checkpointMinutes = 0 means "no rollback", a different model). */
  min: number;
  /** Upper end when the current value is too small to scale from. */
  fallbackMax: number;
}

const KNOBS = {
  failStopSeconds: { group: "detection", key: "failStopSeconds", min: 0, fallbackMax: 300 },
  hangSeconds: { group: "detection", key: "hangSeconds", min: 0, fallbackMax: 1200 },
  syncRestartSeconds: { group: "sync", key: "restartSeconds", min: 0, fallbackMax: 1200 },
  checkpointMinutes: { group: "sync", key: "checkpointMinutes", min: 5, fallbackMax: 240 },
  reconfigureSeconds: { group: "ft", key: "reconfigureSeconds", min: 0, fallbackMax: 120 },
  replicaRestartSeconds: { group: "ft", key: "replicaRestartSeconds", min: 0, fallbackMax: 900 },
  catchUpSeconds: { group: "ft", key: "catchUpSeconds", min: 0, fallbackMax: 300 },
  rejoinSeconds: { group: "ft", key: "rejoinSeconds", min: 0, fallbackMax: 300 },
} as const satisfies Record<string, KnobAxis>;

export type KnobAxisId = keyof typeof KNOBS;
/** An axis from the field table: `group.key`. */
export type FieldAxisId = `${ScenarioGroup}.${string}`;
/** A field of the i-th cause of the scenario's list (0-based, as `failures.causes[i]`). */
export type CauseAxisId = `cause.${number}.${CauseAxisKey}`;
export type CauseAxisKey = "share" | "scope";
export type SweepAxisId = "gpus" | "mtbf" | "replicas" | KnobAxisId | FieldAxisId | CauseAxisId;

export interface SweepAxisInfo {
  id: SweepAxisId;
  label: string;
  unit: string;
  /** Log-spaced axes are drawn on a log scale. */
  log: boolean;
  /** An enumerated field's values, in the spec's order, and how each reads: x is the index. */
  categories?: readonly { value: string; label: string }[];
  /** The field it moves (absent: cluster size and MTBF, which are derived, and a cause's). */
  field?: { group: ScenarioGroup; key: string };
  /** The field of one cause it moves: `failures.causes[index][key]`. */
  cause?: { index: number; key: CauseAxisKey };
  /** What moving it means, when the label alone cannot say (a cause's share). */
  help?: string;
  /** A label for a narrow column that keeps what tells the axis apart (a cause's name). */
  shortLabel?: string;
}

/** Who reads a group's fields, said before a label that other groups share ("Checkpoint interval"). */
const GROUP_PREFIX: Partial<Record<ScenarioGroup, string>> = {
  sync: "Sync: ",
  ft: "FT-HSDP: ",
  inMemory: "In-memory: ",
  hotSpare: "Hot spares: ",
  spares: "Spares: ",
};

function knobInfo(id: KnobAxisId): SweepAxisInfo {
  const { group, key } = KNOBS[id];
  const spec = specOf(group, key);
  const prefix = group === "sync" ? "Sync: " : group === "ft" ? "FT-HSDP: " : "";
  return {
    id,
    label: `${prefix}${spec?.label ?? key}`,
    unit: spec?.unit ?? "",
    log: false,
    field: { group, key },
  };
}

/** Fields round 5's axes already sweep (cluster size, MTBF for the failure rate, replicas, the knobs). */
const LEGACY_FIELDS = new Set([
  "cluster.gpus",
  "cluster.replicas",
  "failures.perHostDay",
  ...Object.values(KNOBS).map(({ group, key }) => `${group}.${key}`),
]);

type SweptNumber = NumberSpec & { sweep: NonNullable<NumberSpec["sweep"]> };

/** Every field of the table that is not a legacy axis, as an axis: numbers with a `sweep`, enums. */
function fieldAxes(): SweepAxisInfo[] {
  const out: SweepAxisInfo[] = [];
  for (const group of GROUPS) {
    for (const [key, spec] of Object.entries(FIELD_SPECS[group] as Record<string, FieldSpec>)) {
      const id = `${group}.${key}` as FieldAxisId;
      if (LEGACY_FIELDS.has(id)) continue;
      const label = `${GROUP_PREFIX[group] ?? ""}${spec.label}`;
      if ((spec.kind === "int" || spec.kind === "number") && spec.sweep)
        out.push({ id, label, unit: spec.unit ?? "", log: spec.sweep.log === true, field: { group, key } });
      else if (spec.kind === "enum")
        out.push({
          id,
          label,
          unit: "",
          log: false,
          field: { group, key },
          categories: spec.values
            .filter((value) => !spec.valuesNotSwept?.includes(value))
            .map((value) => ({ value, label: spec.knob.options?.[value] ?? value })),
        });
    }
  }
  return out;
}

export const SWEEP_AXES: readonly SweepAxisInfo[] = [
  { id: "gpus", label: "Cluster size", unit: "GPUs", log: true, field: { group: "cluster", key: "gpus" } },
  { id: "mtbf", label: "Job MTBF (failure rate)", unit: "min", log: true },
  {
    id: "replicas",
    label: "Replicas (R)",
    unit: "",
    log: true,
    field: { group: "cluster", key: "replicas" },
  },
  ...(Object.keys(KNOBS) as KnobAxisId[]).map(knobInfo),
  ...fieldAxes(),
];

/** Spelled one way only (no leading zero), so a link names each axis with one string. */
const CAUSE_AXIS = /^cause\.(0|[1-9]\d?)\.(share|scope)$/;

/** The cause and field a cause axis names (whatever the scenario), or null when `id` is not one. */
export function causeAxisOf(id: string): { index: number; key: CauseAxisKey } | null {
  const m = CAUSE_AXIS.exec(id);
  const index = Number(m?.[1]);
  if (!m || !(index < MAX_CAUSES)) return null;
  return { index, key: m[2] as CauseAxisKey };
}

export function causeAxisId(index: number, key: CauseAxisKey): CauseAxisId {
  return `cause.${index}.${key}`;
}

function causeItemSpec(key: CauseAxisKey): ScalarSpec {
  const list = FIELD_SPECS.failures.causes;
  const spec = list.kind === "list" ? list.item[key] : undefined;
  if (!spec) throw new Error(`failures.causes has no field ${key}`);
  return spec;
}

/**
 * What a share axis means (docs/model.md §3: shares are weights, normalised over the list): the
 * cause's share of all failures is set to x; the other causes keep their shares of one another,
 * and the failure rate is unchanged, so only what a failure is changes, not how often one comes.
 */
export const CAUSE_SHARE_HELP =
  "A cause's share is its share of all failures (0–1); as it moves, the other causes keep their proportions to one another and the failure rate is unchanged.";
/** The least share a swept cause keeps: a share of 0 is refused (remove the cause instead). */
export const CAUSE_SHARE_MIN = 0.001;
/** Shares are swept on a grid of 10⁻⁴, so a link's point reads back as the value it shows. */
const SHARE_GRID = 1e4;

function causeAxisInfo(index: number, key: CauseAxisKey, cause: FailureCause | undefined): SweepAxisInfo {
  const who = cause ? cause.name : `cause ${index + 1}`;
  const id = causeAxisId(index, key);
  if (key === "share")
    return {
      id,
      label: `Cause share: ${who}`,
      shortLabel: `Share: ${who}`,
      unit: "",
      log: false,
      cause: { index, key },
      help: CAUSE_SHARE_HELP,
    };
  const spec = causeItemSpec("scope");
  const values = spec.kind === "enum" ? spec.values : [];
  return {
    id,
    label: `Cause scope: ${who}`,
    shortLabel: `Scope: ${who}`,
    unit: "",
    log: false,
    cause: { index, key },
    categories: values.map((value) => ({ value, label: value })),
  };
}

/** The cause axes of a scenario's list: each cause's scope, and its share when there are two causes or more. */
function causeAxes(s: Scenario): SweepAxisInfo[] {
  const causes = s.failures.causes;
  return causes.flatMap((c, i) => [
    ...(causes.length >= 2 ? [causeAxisInfo(i, "share", c)] : []),
    causeAxisInfo(i, "scope", c),
  ]);
}

/** Every axis of `s`: the field table's, then its causes'. */
export function sweepAxesFor(s: Scenario): SweepAxisInfo[] {
  return [...SWEEP_AXES, ...causeAxes(s)];
}

/** Why `s` has no such axis (a cause it does not list), naming the axis and the causes, or null. */
export function sweepAxisProblem(s: Scenario, id: string): string | null {
  const c = causeAxisOf(id);
  if (!c) return SWEEP_AXES.some((a) => a.id === id) ? null : `axis ${id.slice(0, 40)} is not a sweep axis`;
  const n = s.failures.causes.length;
  if (c.index >= n)
    return `axis ${id} moves failures.causes[${c.index}], but the scenario lists ${
      n === 0 ? "no causes" : n === 1 ? "one cause (causes[0])" : `${n} causes (causes[0]–causes[${n - 1}])`
    }`;
  if (c.key === "share" && n < 2)
    return `axis ${id} moves a cause's share, but the scenario's only cause has every failure`;
  return null;
}

function othersWeight(causes: readonly FailureCause[], i: number): number {
  let sum = 0;
  for (const [j, c] of causes.entries()) if (j !== i) sum += c.share;
  return sum;
}

/** The largest share cause i may take: its weight stays within the field's maximum, on the grid. */
function shareMax(causes: readonly FailureCause[], i: number): number {
  const spec = causeItemSpec("share");
  const maxWeight = spec.kind === "number" ? spec.max : 1;
  const others = othersWeight(causes, i);
  return (
    Math.floor(Math.min(1 - CAUSE_SHARE_MIN, maxWeight / (maxWeight + others)) * SHARE_GRID) / SHARE_GRID
  );
}

/**
 * Cause i's share of all failures set to p: only its weight changes (to p/(1 − p) times the
 * others'), which normalises to p and leaves the others' weights, and so their proportions, as
 * they were.
 */
function withCauseShare(base: Scenario, i: number, p: number): Scenario {
  const causes = base.failures.causes;
  const share = (p / (1 - p)) * othersWeight(causes, i);
  return {
    ...base,
    failures: { ...base.failures, causes: causes.map((c, j) => (j === i ? { ...c, share } : c)) },
  };
}

/**
 * Cause i struck at another scope. "Needs a new host" follows the scope's own default when it was
 * at the old one's (true; false for job scope, which strikes no host), and must be false for job
 * scope: every point is a valid cause by construction.
 */
function withCauseScope(base: Scenario, i: number, scope: CauseScope): Scenario {
  const causes = base.failures.causes;
  const moved = causes.map((c, j) => {
    if (j !== i) return c;
    const atDefault = c.newHost === (c.scope !== "job");
    return { ...c, scope, newHost: scope === "job" ? false : atDefault ? true : c.newHost };
  });
  return { ...base, failures: { ...base.failures, causes: moved } };
}

function causeValue(s: Scenario, index: number, key: CauseAxisKey): number | null {
  const causes = s.failures.causes;
  const c = causes[index];
  if (!c) return null;
  if (key === "scope") {
    const spec = causeItemSpec("scope");
    const i = spec.kind === "enum" ? spec.values.indexOf(c.scope) : -1;
    return i >= 0 ? i : null;
  }
  const total = c.share + othersWeight(causes, index);
  return total > 0 ? c.share / total : null;
}

function causePointAt(base: Scenario, id: SweepAxisId, v: number): SweepPoint | null {
  const c = causeAxisOf(id);
  if (!c || sweepAxisProblem(base, id)) return null;
  if (c.key === "scope") {
    const spec = causeItemSpec("scope");
    const scope = spec.kind === "enum" ? spec.values[Math.round(v)] : undefined;
    return scope === undefined
      ? null
      : { x: Math.round(v), scenario: withCauseScope(base, c.index, scope as CauseScope) };
  }
  const x =
    Math.round(Math.min(shareMax(base.failures.causes, c.index), Math.max(CAUSE_SHARE_MIN, v)) * SHARE_GRID) /
    SHARE_GRID;
  return { x, scenario: withCauseShare(base, c.index, x) };
}

function causePoints(base: Scenario, id: SweepAxisId, n: number, range: SweepRange | null): SweepPoint[] {
  const c = causeAxisOf(id);
  if (!c || sweepAxisProblem(base, id)) return [];
  if (c.key === "scope") {
    const spec = causeItemSpec("scope");
    const values = spec.kind === "enum" ? spec.values : [];
    return values.map((scope, x) => ({ x, scenario: withCauseScope(base, c.index, scope as CauseScope) }));
  }
  const top = shareMax(base.failures.causes, c.index);
  const current = causeValue(base, c.index, "share") ?? 0.5;
  // 5 %–95 %, stretched to take in the cause's own share so its point is on the curve.
  const [lo, hi] = range
    ? narrow(CAUSE_SHARE_MIN, top, range)
    : [
        Math.max(CAUSE_SHARE_MIN, Math.floor(Math.min(0.05, current) * SHARE_GRID) / SHARE_GRID),
        Math.min(top, Math.ceil(Math.max(0.95, current) * SHARE_GRID) / SHARE_GRID),
      ];
  const xs = linSpaced(lo, hi, n).map((v) => Math.round(v * SHARE_GRID) / SHARE_GRID);
  return distinctSorted(xs)
    .filter((x) => x >= CAUSE_SHARE_MIN && x <= top)
    .map((x) => ({ x, scenario: withCauseShare(base, c.index, x) }));
}

function isKnob(id: SweepAxisId): id is KnobAxisId {
  return Object.hasOwn(KNOBS, id);
}

/** Whether the axis's field takes input in this scenario (its knob is enabled): a disabled one changes nothing the engine reads. */
export function axisApplies(s: Scenario, id: SweepAxisId): boolean {
  if (causeAxisOf(id)) return sweepAxisProblem(s, id) === null;
  const f = axisInfo(id).field;
  if (!f) return true;
  const when = specOf(f.group, f.key)?.knob.enabledWhen;
  return when ? when(s) : true;
}

/** An axis's description; a cause's is labelled with its name in `s` (without `s`: by its place). */
export function axisInfo(id: SweepAxisId, s?: Scenario): SweepAxisInfo {
  const c = causeAxisOf(id);
  if (c) return causeAxisInfo(c.index, c.key, s?.failures.causes[c.index]);
  const info = SWEEP_AXES.find((a) => a.id === id);
  if (!info) throw new Error(`unknown sweep axis ${id}`);
  return info;
}

export interface SweepPoint {
  /** The swept value, in the axis's unit. */
  x: number;
  scenario: Scenario;
}

export const SWEEP_GPU_RANGE = { min: 1_000, max: 200_000 } as const;
export const MIN_POINTS = 2;
export const MAX_POINTS = 50;
/** Seeds per point a sweep may run (the page's field and a link's `sw=`). */
export const MIN_SWEEP_SEEDS = 1;
export const MAX_SWEEP_SEEDS = 2000;

/** A person's range for the swept value, in the axis's unit; each end is clamped to what the axis allows. */
export interface SweepRange {
  from: number;
  to: number;
}

/** Why `range` cannot be swept, naming the fields, or null. */
export function sweepRangeProblem(range: SweepRange): string | null {
  const { from, to } = range;
  if (!Number.isFinite(from) || !Number.isFinite(to) || from < 0 || to < 0)
    return "Sweep from / to: must be numbers ≥ 0.";
  if (from >= to) return `Sweep from / to: from (${from}) must be below to (${to}).`;
  return null;
}

/** [lo, hi] narrowed to the person's range (kept inside the axis's own bounds). */
function narrow(lo: number, hi: number, range: SweepRange | null): [number, number] {
  if (!range) return [lo, hi];
  const a = Math.min(Math.max(range.from, lo), hi);
  const b = Math.max(Math.min(range.to, hi), a);
  return [a, b];
}

function logSpaced(lo: number, hi: number, n: number): number[] {
  if (n === 1 || lo === hi) return [lo];
  const a = Math.log(lo);
  const b = Math.log(hi);
  return Array.from({ length: n }, (_, i) => Math.exp(a + ((b - a) * i) / (n - 1)));
}

function linSpaced(lo: number, hi: number, n: number): number[] {
  if (n === 1 || lo === hi) return [lo];
  return Array.from({ length: n }, (_, i) => lo + ((hi - lo) * i) / (n - 1));
}

function distinctSorted(xs: number[]): number[] {
  return [...new Set(xs)].sort((a, b) => a - b);
}

/** Expected failures over the horizon stay under the engine's bound. */
function withinFailureBound(s: Scenario): boolean {
  return derived(s).expectedFailures <= MAX_EXPECTED_FAILURES;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

function gpuPoints(base: Scenario, n: number, range: SweepRange | null): SweepPoint[] {
  // Hosts must divide into replicas and into racks: step by their least common multiple.
  const { replicas, hostsPerRack } = base.cluster;
  const unit = base.cluster.gpusPerHost * ((replicas / gcd(replicas, hostsPerRack)) * hostsPerRack);
  const xs = distinctSorted(
    // 1K–200K GPUs, stretched to take in the base cluster so its own point is on the curve.
    logSpaced(
      ...narrow(
        range ? unit : Math.min(SWEEP_GPU_RANGE.min, base.cluster.gpus),
        range ? specMax(FIELD_SPECS.cluster.gpus) : Math.max(SWEEP_GPU_RANGE.max, base.cluster.gpus),
        range,
      ),
      n,
    ).map((g) => Math.max(unit, Math.round(g / unit) * unit)),
  );
  return xs.map((gpus) => ({ x: gpus, scenario: { ...base, cluster: { ...base.cluster, gpus } } }));
}

/** Failure rate, shown as the job's MTBF: from an eighth to eight times the current one. */
function mtbfPoints(base: Scenario, n: number, range: SweepRange | null): SweepPoint[] {
  const { hosts, mtbfSeconds } = derived(base);
  const centre = Number.isFinite(mtbfSeconds) ? mtbfSeconds / 60 : 60;
  const maxRate = Math.min(
    specMax(FIELD_SPECS.failures.perHostDay),
    MAX_EXPECTED_FAILURES / (hosts * base.training.days),
  );
  // The shortest MTBF the validator allows, in minutes, so every point runs.
  const minMtbf = 1440 / (hosts * maxRate);
  const [lo, hi] = range
    ? narrow(minMtbf, Number.MAX_VALUE, range)
    : [Math.max(centre / 8, minMtbf), Math.max(centre * 8, minMtbf)];
  const xs = logSpaced(lo, hi, n).map((m) => Number(m.toPrecision(4)));
  return distinctSorted(xs).map((mtbfMinutes) => {
    const perHostDay = Math.min(maxRate, 1440 / (hosts * mtbfMinutes));
    return { x: mtbfMinutes, scenario: { ...base, failures: { ...base.failures, perHostDay } } };
  });
}

/** Divisors of the host count that keep min replicas satisfied. */
function replicaPoints(base: Scenario, n: number, range: SweepRange | null): SweepPoint[] {
  const { hosts } = derived(base);
  const divisors: number[] = [];
  for (let d = 1; d * d <= hosts; d++) {
    if (hosts % d !== 0) continue;
    divisors.push(d);
    if (d * d !== hosts) divisors.push(hosts / d);
  }
  const ok = distinctSorted(divisors).filter(
    (d) =>
      d >= base.ft.minReplicas &&
      d <= specMax(FIELD_SPECS.cluster.replicas) &&
      (!range || (d >= range.from && d <= range.to)),
  );
  if (ok.length <= n) return ok.map((r) => ({ x: r, scenario: withReplicas(base, r) }));
  // Divisors are already spread roughly evenly on a log scale: pick evenly by index.
  const picks = distinctSorted(linSpaced(0, ok.length - 1, n).map((i) => ok[Math.round(i)] ?? 1));
  return picks.map((r) => ({ x: r, scenario: withReplicas(base, r) }));
}

function withReplicas(base: Scenario, replicas: number): Scenario {
  return { ...base, cluster: { ...base.cluster, replicas } };
}

function knobPoints(base: Scenario, id: KnobAxisId, n: number, range: SweepRange | null): SweepPoint[] {
  const { group, key, min, fallbackMax } = KNOBS[id];
  const current = (base[group] as unknown as Record<string, number>)[key] ?? 0;
  const hi = Math.min(specMax(specOf(group, key)), Math.max(2 * current, fallbackMax / 4, min + 1));
  const [lo, top] = range ? narrow(min, specMax(specOf(group, key)), range) : [min, hi];
  const xs = distinctSorted(linSpaced(lo, top, n).map((v) => Math.round(v)));
  return xs.map((x) => ({ x, scenario: { ...base, [group]: { ...base[group], [key]: x } } }));
}

function fieldOf(axis: SweepAxisId): { group: ScenarioGroup; key: string; spec: FieldSpec } {
  const f = axisInfo(axis).field;
  const spec = f && specOf(f.group, f.key);
  if (!f || !spec) throw new Error(`sweep axis ${axis} has no field`);
  return { ...f, spec };
}

function withField(base: Scenario, group: ScenarioGroup, key: string, v: number | string): Scenario {
  return { ...base, [group]: { ...base[group], [key]: v } };
}

/** The lowest value a number may take: a time interval's `smallest` when 0 itself is refused. */
function specLow(spec: NumberSpec): number {
  return spec.minExclusive ? (spec.smallest ?? spec.min) : spec.min;
}

/**
 * The integers an int field may take in `base` whatever the other fields (GPUs per host and hosts
 * per rack must divide the cluster; min replicas ≤ replicas), or null when any in range will do.
 */
function intCandidates(base: Scenario, group: ScenarioGroup, key: string, spec: NumberSpec): number[] | null {
  const { gpus, gpusPerHost, replicas, hostsPerRack } = base.cluster;
  const hosts = gpus / gpusPerHost;
  const upTo = (max: number, ok: (d: number) => boolean) =>
    Array.from({ length: max }, (_, i) => i + 1).filter(ok);
  if (group === "cluster" && key === "gpusPerHost")
    return upTo(
      spec.max,
      (g) => gpus % g === 0 && (gpus / g) % replicas === 0 && (gpus / g) % hostsPerRack === 0,
    );
  if (group === "cluster" && key === "hostsPerRack")
    return upTo(Math.min(spec.max, hosts), (r) => hosts % r === 0);
  if (group === "ft" && key === "minReplicas") return upTo(Math.min(spec.max, replicas), () => true);
  return null;
}

function nearest(xs: readonly number[], v: number): number | undefined {
  let best: number | undefined;
  for (const x of xs) if (best === undefined || Math.abs(x - v) < Math.abs(best - v)) best = x;
  return best;
}

/** A number field set to v (rounded, clamped to its range, snapped to a value the cluster allows). */
function fieldPointAt(base: Scenario, axis: SweepAxisId, v: number): SweepPoint | null {
  const { group, key, spec } = fieldOf(axis);
  if (spec.kind !== "int" && spec.kind !== "number") return null;
  let x = Math.min(spec.max, Math.max(specLow(spec), v));
  if (spec.kind === "int") {
    x = Math.round(x);
    const ok = intCandidates(base, group, key, spec);
    if (ok) {
      const snapped = nearest(ok, x);
      if (snapped === undefined) return null;
      x = snapped;
    }
  } else x = Number(x.toPrecision(4));
  if (spec.maxExclusive && x >= spec.max) return null;
  return { x, scenario: withField(base, group, key, x) };
}

function fieldPoints(base: Scenario, axis: SweepAxisId, n: number, range: SweepRange | null): SweepPoint[] {
  const { group, key, spec } = fieldOf(axis);
  if (spec.kind === "enum")
    return spec.values
      .filter((value) => !spec.valuesNotSwept?.includes(value))
      .map((value, i) => ({ x: i, scenario: withField(base, group, key, value) }));
  if (spec.kind !== "int" && spec.kind !== "number") return [];
  const { sweep } = spec as SweptNumber;
  const current = (base[group] as unknown as Record<string, number>)[key] ?? sweep.lo;
  const top = spec.maxExclusive ? spec.max * 0.999 : spec.max;
  const [lo, hi] = range
    ? narrow(specLow(spec), top, range)
    : [Math.max(sweep.lo, specLow(spec)), Math.min(top, Math.max(sweep.hi, 2 * current))];
  const ok = spec.kind === "int" ? intCandidates(base, group, key, spec) : null;
  if (ok) {
    const inRange = ok.filter((d) => d >= lo && d <= hi);
    const picks =
      inRange.length <= n
        ? inRange
        : distinctSorted(linSpaced(0, inRange.length - 1, n).map((i) => inRange[Math.round(i)] ?? 1));
    return picks.map((x) => ({ x, scenario: withField(base, group, key, x) }));
  }
  const xs = (sweep.log && lo > 0 ? logSpaced(lo, hi, n) : linSpaced(lo, hi, n)).map((v) =>
    spec.kind === "int" ? Math.round(v) : Number(v.toPrecision(4)),
  );
  return distinctSorted(xs)
    .filter((x) => x >= specLow(spec) && x <= top)
    .map((x) => ({ x, scenario: withField(base, group, key, x) }));
}

/** Where a scenario sits on a sweep axis, in the axis's unit (null: MTBF of a cluster that never fails); a category's index. */
export function sweepValue(s: Scenario, axis: SweepAxisId): number | null {
  if (axis === "gpus") return s.cluster.gpus;
  if (axis === "replicas") return s.cluster.replicas;
  if (axis === "mtbf") {
    const m = derived(s).mtbfSeconds;
    return Number.isFinite(m) ? m / 60 : null;
  }
  const c = causeAxisOf(axis);
  if (c) return causeValue(s, c.index, c.key);
  if (isKnob(axis)) {
    const { group, key } = KNOBS[axis];
    return (s[group] as unknown as Record<string, number>)[key] ?? null;
  }
  const { group, key, spec } = fieldOf(axis);
  const v = (s[group] as unknown as Record<string, number | string>)[key];
  if (spec.kind === "enum") {
    const i = spec.values.indexOf(String(v));
    return i >= 0 ? i : null;
  }
  return typeof v === "number" ? v : null;
}

/** A valid point, normalised through the validator, or null (past the failure bound, or refused). */
function validPoint(p: SweepPoint): SweepPoint | null {
  if (!withinFailureBound(p.scenario)) return null;
  try {
    return { x: p.x, scenario: parseScenario(p.scenario) };
  } catch {
    // A combination the field table's own rules refuse (rack strikes past the engine's bound).
    return null;
  }
}

/**
 * The scenario with the axis set to `v` (in the axis's unit; a category's index), snapped to the
 * nearest value the cluster allows, or null when none is valid. The tornado moves knobs with it.
 */
export function sweepPointAt(base: Scenario, axis: SweepAxisId, v: number): SweepPoint | null {
  let p: SweepPoint | null;
  if (axis === "gpus") {
    const { replicas, hostsPerRack } = base.cluster;
    const unit = base.cluster.gpusPerHost * ((replicas / gcd(replicas, hostsPerRack)) * hostsPerRack);
    const gpus = Math.min(specMax(FIELD_SPECS.cluster.gpus), Math.max(unit, Math.round(v / unit) * unit));
    p = { x: gpus, scenario: { ...base, cluster: { ...base.cluster, gpus } } };
  } else if (axis === "mtbf") {
    const { hosts } = derived(base);
    const mtbfMinutes = Number(v.toPrecision(4));
    const perHostDay = Math.min(specMax(FIELD_SPECS.failures.perHostDay), 1440 / (hosts * mtbfMinutes));
    p =
      mtbfMinutes > 0
        ? { x: mtbfMinutes, scenario: { ...base, failures: { ...base.failures, perHostDay } } }
        : null;
  } else if (axis === "replicas") {
    const ok = replicaPoints(base, MAX_POINTS * 1000, null).map((q) => q.x);
    const r = nearest(ok, v);
    p = r === undefined ? null : { x: r, scenario: withReplicas(base, r) };
  } else if (causeAxisOf(axis)) {
    p = causePointAt(base, axis, v);
  } else if (isKnob(axis)) {
    const { group, key, min } = KNOBS[axis];
    const x = Math.min(specMax(specOf(group, key)), Math.max(min, v));
    p = { x, scenario: { ...base, [group]: { ...base[group], [key]: x } } };
  } else {
    const { group, key, spec } = fieldOf(axis);
    if (spec.kind === "enum") {
      const value = spec.values[Math.round(v)];
      p = value === undefined ? null : { x: Math.round(v), scenario: withField(base, group, key, value) };
    } else p = fieldPointAt(base, axis, v);
  }
  return p && validPoint(p);
}

/**
 * The scenarios of a sweep along `axis`, `points` of them at most (fewer when rounding to valid
 * values makes two coincide). Every other field is the base scenario's.
 */
export function buildSweep(
  base: Scenario,
  axis: SweepAxisId,
  points: number,
  range: SweepRange | null = null,
): SweepPoint[] {
  const n = Math.max(MIN_POINTS, Math.min(MAX_POINTS, Math.round(points)));
  const raw =
    axis === "gpus"
      ? gpuPoints(base, n, range)
      : axis === "mtbf"
        ? mtbfPoints(base, n, range)
        : axis === "replicas"
          ? replicaPoints(base, n, range)
          : causeAxisOf(axis)
            ? causePoints(base, axis, n, range)
            : isKnob(axis)
              ? knobPoints(base, axis, n, range)
              : fieldPoints(base, axis, n, range);
  // Normalise through the validator (it is the single source of truth), dropping any point the
  // constructions above could still push past the failure bound (a huge cluster at a high rate)
  // or that the validator refuses (a rack size whose strikes pass the bound).
  return raw.map(validPoint).filter((p): p is SweepPoint => p !== null);
}
