/**
 * The scenarios along one axis, each valid by construction (hosts divisible by replicas, min
 * replicas ≤ replicas, expected failures under the simulator's bound), so a sweep never half-fails
 * in the worker. The axes from before the field table (cluster size, MTBF, replicas, the recovery
 * knobs) keep their own builders, so an old `sw=` link sweeps the same scenarios bit for bit
 * (sweepAxesCompat.test.ts); every other field sweeps by its spec's `sweep`.
 */
import {
  derived,
  FIELD_SPECS,
  type FieldSpec,
  fieldValue,
  MAX_EXPECTED_FAILURES,
  memberField,
  type NumberSpec,
  numberField,
  parseScenario,
  type Scenario,
  type ScenarioGroup,
  withFieldValue,
} from "../scenario/index.ts";
import { axisInfo, isKnob, legacyKnob, numberSpecOf, type SweptNumber, specOf } from "./axes.ts";
import { causeAxisOf, causePointAt, causePoints, causeShareBounds, causeValue } from "./causeAxes.ts";
import {
  distinctSorted,
  linSpaced,
  logSpaced,
  narrow,
  nearest,
  pickEvenly,
  type SweepRange,
} from "./spacing.ts";
import type { AxisField, KnobAxisId, SweepAxisId, SweepPoint } from "./types.ts";

export const SWEEP_GPU_RANGE = { min: 1_000, max: 200_000 } as const;
export const MIN_POINTS = 2;
export const MAX_POINTS = 50;
/** Seeds per point a sweep may run (the page's field and a link's `sw=`). */
export const MIN_SWEEP_SEEDS = 1;
export const MAX_SWEEP_SEEDS = 2000;

function specMax(spec: NumberSpec | FieldSpec | undefined): number {
  return spec && (spec.kind === "int" || spec.kind === "number") ? spec.max : Number.POSITIVE_INFINITY;
}

/** Expected failures over the horizon stay under the engine's bound. */
function withinFailureBound(s: Scenario): boolean {
  return derived(s).expectedFailures <= MAX_EXPECTED_FAILURES;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** Hosts must divide into replicas and into racks: cluster sizes step by their least common multiple. */
function gpuUnit(base: Scenario): number {
  const { replicas, hostsPerRack } = base.cluster;
  return base.cluster.gpusPerHost * ((replicas / gcd(replicas, hostsPerRack)) * hostsPerRack);
}

function gpuPoints(base: Scenario, n: number, range: SweepRange | null): SweepPoint[] {
  const unit = gpuUnit(base);
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
  return pickEvenly(ok, n).map((r) => ({ x: r, scenario: withReplicas(base, r) }));
}

function withReplicas(base: Scenario, replicas: number): Scenario {
  return { ...base, cluster: { ...base.cluster, replicas } };
}

/** A legacy knob: whole numbers from its sweep's low end to twice its value (at least a quarter of its sweep's high end). */
function knobPoints(base: Scenario, id: KnobAxisId, n: number, range: SweepRange | null): SweepPoint[] {
  const { group, key, spec } = legacyKnob(id);
  const { lo: min, hi: fallbackMax } = spec.sweep;
  const current = numberField(base, group, key) ?? 0;
  const hi = Math.min(spec.max, Math.max(2 * current, fallbackMax / 4, min + 1));
  const [lo, top] = range ? narrow(min, spec.max, range) : [min, hi];
  const xs = distinctSorted(linSpaced(lo, top, n).map((v) => Math.round(v)));
  return xs.map((x) => ({ x, scenario: withFieldValue(base, group, key, x) }));
}

function fieldOf(axis: SweepAxisId): AxisField & { spec: FieldSpec } {
  const f = axisInfo(axis).field;
  const spec = f && specOf(f.group, f.key);
  if (!f || !spec) throw new Error(`sweep axis ${axis} has no field`);
  return { ...f, spec };
}

/** The scenario with the axis's field (or its record's member) set to v. */
function withAxisField(base: Scenario, f: AxisField, v: number | string): Scenario {
  if (f.member === undefined) return withFieldValue(base, f.group, f.key, v);
  const record = fieldValue(base, f.group, f.key);
  return withFieldValue(base, f.group, f.key, {
    ...(typeof record === "object" ? record : {}),
    [f.member]: v,
  });
}

function axisNumber(s: Scenario, f: AxisField): number | undefined {
  return f.member === undefined ? numberField(s, f.group, f.key) : memberField(s, f.group, f.key, f.member);
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

/** A number field set to v (rounded, clamped to its range, snapped to a value the cluster allows). */
function fieldPointAt(base: Scenario, axis: SweepAxisId, v: number): SweepPoint | null {
  const f = fieldOf(axis);
  const spec = numberSpecOf(f);
  if (!spec) return null;
  let x = Math.min(spec.max, Math.max(specLow(spec), v));
  if (spec.kind === "int") {
    x = Math.round(x);
    const ok = f.member === undefined ? intCandidates(base, f.group, f.key, spec) : null;
    if (ok) {
      const snapped = nearest(ok, x);
      if (snapped === undefined) return null;
      x = snapped;
    }
  } else x = Number(x.toPrecision(4));
  if (spec.maxExclusive && x >= spec.max) return null;
  return { x, scenario: withAxisField(base, f, x) };
}

function fieldPoints(base: Scenario, axis: SweepAxisId, n: number, range: SweepRange | null): SweepPoint[] {
  const f = fieldOf(axis);
  const { spec } = f;
  if (spec.kind === "enum")
    return spec.values
      .filter((value) => !spec.valuesNotSwept?.includes(value))
      .map((value, i) => ({ x: i, scenario: withAxisField(base, f, value) }));
  const num = numberSpecOf(f);
  if (!num?.sweep) return [];
  const { sweep } = num as SweptNumber;
  const current = axisNumber(base, f) ?? sweep.lo;
  const top = num.maxExclusive ? num.max * 0.999 : num.max;
  const [lo, hi] = range
    ? narrow(specLow(num), top, range)
    : [Math.max(sweep.lo, specLow(num)), Math.min(top, Math.max(sweep.hi, 2 * current))];
  const ok = num.kind === "int" && f.member === undefined ? intCandidates(base, f.group, f.key, num) : null;
  if (ok)
    return pickEvenly(
      ok.filter((d) => d >= lo && d <= hi),
      n,
    ).map((x) => ({ x, scenario: withAxisField(base, f, x) }));
  const xs = (sweep.log && lo > 0 ? logSpaced(lo, hi, n) : linSpaced(lo, hi, n)).map((v) =>
    num.kind === "int" ? Math.round(v) : Number(v.toPrecision(4)),
  );
  return distinctSorted(xs)
    .filter((x) => x >= specLow(num) && x <= top)
    .map((x) => ({ x, scenario: withAxisField(base, f, x) }));
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
    const { group, key } = legacyKnob(axis);
    return numberField(s, group, key) ?? null;
  }
  const f = fieldOf(axis);
  if (f.spec.kind === "enum") {
    const i = f.spec.values.indexOf(String(fieldValue(s, f.group, f.key)));
    return i >= 0 ? i : null;
  }
  return axisNumber(s, f) ?? null;
}

/**
 * The values a person's range may take on a number axis of `base` (the bounds each builder keeps
 * a range within), or null for categories: a range past them is refused by name, not narrowed.
 */
export function sweepAxisBounds(base: Scenario, axis: SweepAxisId): { lo: number; hi: number } | null {
  if (axis === "gpus") return { lo: gpuUnit(base), hi: specMax(FIELD_SPECS.cluster.gpus) };
  if (axis === "replicas") return { lo: base.ft.minReplicas, hi: specMax(FIELD_SPECS.cluster.replicas) };
  if (axis === "mtbf") {
    const { hosts } = derived(base);
    const maxRate = Math.min(
      specMax(FIELD_SPECS.failures.perHostDay),
      MAX_EXPECTED_FAILURES / (hosts * base.training.days),
    );
    return { lo: 1440 / (hosts * maxRate), hi: Number.MAX_VALUE };
  }
  const c = causeAxisOf(axis);
  if (c) return c.key === "share" ? causeShareBounds(base, c.index) : null;
  if (isKnob(axis)) {
    const { spec } = legacyKnob(axis);
    return { lo: spec.sweep.lo, hi: spec.max };
  }
  const num = numberSpecOf(fieldOf(axis));
  if (!num?.sweep) return null;
  return { lo: specLow(num), hi: num.maxExclusive ? num.max * 0.999 : num.max };
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

/** The unchecked point of a field's axis at v: a category's index, or a number clamped and snapped. */
function tablePointAt(base: Scenario, axis: SweepAxisId, v: number): SweepPoint | null {
  if (isKnob(axis)) {
    const { group, key, spec } = legacyKnob(axis);
    const x = Math.min(spec.max, Math.max(spec.sweep.lo, v));
    return { x, scenario: withFieldValue(base, group, key, x) };
  }
  const f = fieldOf(axis);
  if (f.spec.kind !== "enum") return fieldPointAt(base, axis, v);
  const value = f.spec.values[Math.round(v)];
  return value === undefined ? null : { x: Math.round(v), scenario: withAxisField(base, f, value) };
}

/**
 * The scenario with the axis set to `v` (in the axis's unit; a category's index), snapped to the
 * nearest value the cluster allows, or null when none is valid. The tornado moves knobs with it.
 */
export function sweepPointAt(base: Scenario, axis: SweepAxisId, v: number): SweepPoint | null {
  let p: SweepPoint | null;
  if (axis === "gpus") {
    const unit = gpuUnit(base);
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
  } else p = causeAxisOf(axis) ? causePointAt(base, axis, v) : tablePointAt(base, axis, v);
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
