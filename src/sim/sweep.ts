/**
 * What-if sweeps: the scenarios along one axis, each valid by construction (hosts divisible by
 * replicas, min replicas ≤ replicas, expected failures under the simulator's bound), so a sweep
 * never half-fails in the worker. Pure: the worker pool runs what this builds.
 */
import {
  derived,
  FIELD_SPECS,
  type FieldSpec,
  MAX_EXPECTED_FAILURES,
  parseScenario,
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
export type SweepAxisId = "gpus" | "mtbf" | "replicas" | KnobAxisId;

export interface SweepAxisInfo {
  id: SweepAxisId;
  label: string;
  unit: string;
  /** Log-spaced axes are drawn on a log scale. */
  log: boolean;
}

function knobInfo(id: KnobAxisId): SweepAxisInfo {
  const { group, key } = KNOBS[id];
  const spec = specOf(group, key);
  const prefix = group === "sync" ? "Sync: " : group === "ft" ? "FT-HSDP: " : "";
  return { id, label: `${prefix}${spec?.label ?? key}`, unit: spec?.unit ?? "", log: false };
}

export const SWEEP_AXES: readonly SweepAxisInfo[] = [
  { id: "gpus", label: "Cluster size", unit: "GPUs", log: true },
  { id: "mtbf", label: "Job MTBF (failure rate)", unit: "min", log: true },
  { id: "replicas", label: "Replicas (R)", unit: "", log: true },
  ...(Object.keys(KNOBS) as KnobAxisId[]).map(knobInfo),
];

export function axisInfo(id: SweepAxisId): SweepAxisInfo {
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

/** Where a scenario sits on a sweep axis, in the axis's unit (null: MTBF of a cluster that never fails). */
export function sweepValue(s: Scenario, axis: SweepAxisId): number | null {
  if (axis === "gpus") return s.cluster.gpus;
  if (axis === "replicas") return s.cluster.replicas;
  if (axis === "mtbf") {
    const m = derived(s).mtbfSeconds;
    return Number.isFinite(m) ? m / 60 : null;
  }
  const { group, key } = KNOBS[axis];
  return (s[group] as unknown as Record<string, number>)[key] ?? null;
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
          : knobPoints(base, axis, n, range);
  // Normalise through the validator (it is the single source of truth), dropping any point the
  // constructions above could still push past the failure bound (a huge cluster at a high rate).
  return raw
    .filter((p) => withinFailureBound(p.scenario))
    .map((p) => ({ x: p.x, scenario: parseScenario(p.scenario) }));
}
