/**
 * The tornado: which assumption matters most. Each knob (every sweep axis that applies to the
 * scenario, from the field table) is moved down and up by a stated amount (±50 % by default,
 * clamped to its range and snapped to a value the cluster allows), an enumerated one to each of
 * its other values; each selected policy's ETTR change is a bar per row, rows sorted by size.
 *
 * Common random numbers: every scenario of a tornado runs the same seeds (seed i of each is the
 * base scenario's seed + i, as in a sweep), and a bar is the mean of the run-by-run differences
 * (end − base on the same seed), so a knob's small effect is not buried under seed-to-seed noise.
 * Its ±95 % half-width is that of the paired differences; the runner adds seeds until every bar
 * end is within the precision asked for, or the cap.
 *
 * Pure: this plans the scenarios and summarizes the per-run ETTRs the workers send back.
 */

import { t95 } from "../monteCarlo/tQuantile.ts";
import { policyOf } from "../policies/index.ts";
import type { PolicyKey } from "../policies/policyKeys.ts";
import { FIELD_SPECS, type FieldSpec, type Scenario } from "../scenario/index.ts";
import {
  axisApplies,
  axisInfo,
  axisSweepRange,
  type SweepAxisId,
  sweepAxesFor,
  sweepPointAt,
  sweepValue,
} from "./index.ts";

/** How far a number moves each way, as a fraction of its value: the default and the bounds a person may set. */
export const TORNADO_AMOUNT = { default: 0.5, min: 0.01, max: 0.99 } as const;
/** The ± 95 % half-width every bar end must reach, in ETTR (0.01 = 1 point), and its bounds. */
export const TORNADO_PRECISION = { default: 0.01, min: 0.001, max: 0.1 } as const;
/** The most seeds a scenario of the tornado may run (the precision stop's cap), and its bounds. */
export const TORNADO_MAX_SEEDS = { default: 400, min: 20, max: 5000 } as const;
/** Seeds in the first round; each later round doubles the count of the rows not yet precise. */
export const TORNADO_FIRST_SEEDS = 20;

export interface TornadoSettings {
  /** Fraction each number moves down and up (0.5 = ±50 %). */
  amount: number;
  /** Target ±95 % half-width of each bar end, in ETTR. */
  precision: number;
  /** Seeds per scenario at most. */
  maxSeeds: number;
}

export const DEFAULT_TORNADO_SETTINGS: TornadoSettings = {
  amount: TORNADO_AMOUNT.default,
  precision: TORNADO_PRECISION.default,
  maxSeeds: TORNADO_MAX_SEEDS.default,
};

/** One moved value of a row: its x on the axis (a category's index), how it reads, its scenario. */
export interface TornadoEnd {
  x: number;
  text: string;
  scenario: Scenario;
}

export interface TornadoRowPlan {
  axis: SweepAxisId;
  label: string;
  /** For a narrow label column, when the label's start would not tell rows apart (a cause's). */
  shortLabel?: string;
  /** What moving it means, when the label alone cannot say (a cause's share). */
  help?: string;
  unit: string;
  /** The base scenario's value (a category's index), and as it reads. */
  baseX: number;
  baseText: string;
  /** Numbers: [down, up] (one of them when the other end is the value itself); categories: every other value. */
  ends: TornadoEnd[];
  categorical: boolean;
}

export interface TornadoPlan {
  base: Scenario;
  policies: readonly PolicyKey[];
  rows: TornadoRowPlan[];
  /** Axes that apply but cannot move (a value of 0 moved by a fraction, a range's end), with why. */
  still: { axis: SweepAxisId; label: string; why: string }[];
  /** Every scenario to run, base first, then each row's ends in order. */
  scenarios: Scenario[];
}

function readable(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  return a >= 1000 ? Math.round(v).toLocaleString("en-US") : String(Number(v.toPrecision(3)));
}

function valueText(axis: SweepAxisId, v: number | null): string {
  const info = axisInfo(axis);
  if (v === null) return "—";
  if (info.categories) return info.categories[v]?.label ?? String(v);
  return `${readable(v)}${info.unit ? ` ${info.unit}` : ""}`;
}

/**
 * Categories whose meaning rests on a count that may sit at 0: a limited spare pool with 0 spare
 * hosts would land on an extreme no one runs (every failure waits a day for a repair and every
 * strategy falls to about 0 %), an artifact rather than a sensitivity.
 */
const CATEGORY_NEEDS: Readonly<Record<string, { value: string; axis: SweepAxisId }>> = {
  "spares.pool": { value: "limited", axis: "spares.hosts" },
};

/**
 * The moved scenario, with the count its category rests on moved off 0 by the tornado's share of
 * its usual range (as a knob at 0 moves), and the words that say so; null when nothing needs it.
 */
function withNeededCount(
  axis: SweepAxisId,
  moved: Scenario,
  amount: number,
): { scenario: Scenario; text: string } | null {
  const need = CATEGORY_NEEDS[axis];
  const info = need ? axisInfo(need.axis) : null;
  if (!need || !info?.field || sweepValue(moved, axis) !== sweepValueOfCategory(axis, need.value))
    return null;
  if (sweepValue(moved, need.axis) !== 0) return null;
  const range = axisSweepRange(need.axis);
  const p = range ? sweepPointAt(moved, need.axis, amount * range.hi) : null;
  if (!p || p.x === 0) return null;
  return {
    scenario: p.scenario,
    text: `${(info.label.split(": ").at(-1) ?? info.label).toLowerCase()} ${valueText(need.axis, p.x)}, not 0`,
  };
}

function sweepValueOfCategory(axis: SweepAxisId, value: string): number {
  const f = axisInfo(axis).field;
  const spec = f ? (FIELD_SPECS[f.group] as Record<string, FieldSpec>)[f.key] : undefined;
  return spec?.kind === "enum" ? spec.values.indexOf(value) : -1;
}

/**
 * The rows of a tornado of `base`: every axis that applies to it, moved by ±amount, its causes'
 * too (a cause's share moves by ±amount of itself, clamped below 1; sweep.ts says what it means).
 */
export function planTornado(base: Scenario, amount: number): TornadoPlan {
  const steps = planTornadoSteps(base, amount);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * planTornado one axis at a time: it yields after each, so a page may plan in slices between
 * frames (a tornado a link runs on open); run to its end, it returns the plan.
 */
export function* planTornadoSteps(base: Scenario, amount: number): Generator<undefined, TornadoPlan> {
  const rows: TornadoRowPlan[] = [];
  const still: TornadoPlan["still"] = [];
  const scenarios: Scenario[] = [base];
  for (const info of sweepAxesFor(base)) {
    yield;
    if (!axisApplies(base, info.id)) continue;
    const v = sweepValue(base, info.id);
    if (v === null) continue;
    // A knob at 0 does not move by a fraction of itself: it moves up by that fraction of its
    // plausible range (its spec's sweep range), which the end's label then states.
    const range = axisSweepRange(info.id);
    const candidates = info.categories
      ? info.categories.map((_, i) => i).filter((i) => i !== v)
      : v === 0 && range
        ? [amount * range.hi]
        : [v * (1 - amount), v * (1 + amount)];
    const ends: TornadoEnd[] = [];
    for (const c of candidates) {
      const p = sweepPointAt(base, info.id, c);
      // A value the cluster does not allow snaps back to the base's own, or to the other end.
      if (!p || p.x === v || ends.some((e) => e.x === p.x)) continue;
      const enabled = info.categories ? withNeededCount(info.id, p.scenario, amount) : null;
      ends.push(
        enabled
          ? { x: p.x, text: `${valueText(info.id, p.x)} (${enabled.text})`, scenario: enabled.scenario }
          : { x: p.x, text: valueText(info.id, p.x), scenario: p.scenario },
      );
    }
    if (ends.length === 0) {
      still.push({
        axis: info.id,
        label: info.label,
        why:
          v === 0 ? "at 0, a fraction of it is 0" : `no other value near ${valueText(info.id, v)} is allowed`,
      });
      continue;
    }
    rows.push({
      axis: info.id,
      label: info.label,
      ...(info.shortLabel ? { shortLabel: info.shortLabel } : {}),
      ...(info.help ? { help: info.help } : {}),
      unit: info.unit,
      baseX: v,
      baseText: valueText(info.id, v),
      ends,
      categorical: info.categories !== undefined,
    });
    for (const e of ends) scenarios.push(e.scenario);
  }
  return { base, policies: base.policies, rows, still, scenarios };
}

/** Per-run ETTRs of one scenario, by policy, seeds 0..n−1 in order (what the workers send back). */
export type EttrRuns = Partial<Record<PolicyKey, Float64Array>>;

/**
 * The mean and ±95 % half-width of paired differences a[i] − b[i] over the first n: Student's t
 * with n − 1 degrees of freedom (a row stops at 20 seeds, where 1.96 would claim 8 % too little).
 */
export function pairedChange(a: Float64Array, b: Float64Array, n: number): { mean: number; half: number } {
  if (n === 0) return { mean: 0, half: Number.POSITIVE_INFINITY };
  let sum = 0;
  for (let i = 0; i < n; i++) sum += (a[i] as number) - (b[i] as number);
  const mean = sum / n;
  if (n < 2) return { mean, half: Number.POSITIVE_INFINITY };
  let ss = 0;
  for (let i = 0; i < n; i++) {
    const d = (a[i] as number) - (b[i] as number) - mean;
    ss += d * d;
  }
  return { mean, half: (t95(n - 1) * Math.sqrt(ss / (n - 1))) / Math.sqrt(n) };
}

export interface TornadoSegment {
  /** Index of the end in the row's plan. */
  end: number;
  text: string;
  /** ETTR change from the base, mean over the shared seeds, and its ±95 % half-width. */
  change: number;
  half: number;
}

export interface TornadoBar {
  /** A policy's key, or "advantage" for the subject's lead over the reference. */
  series: PolicyKey | "advantage";
  segments: TornadoSegment[];
  /** Smallest and largest change, with 0 (the base) between them. */
  lo: number;
  hi: number;
}

export interface TornadoRow {
  plan: TornadoRowPlan;
  bars: TornadoBar[];
  /** The row's size: the widest policy bar (the advantage's width ranks the sentence, not the rows). */
  size: number;
  /** Seeds its scenarios ran. */
  seeds: number;
}

export interface TornadoResult {
  /** Rows where some run changed, largest first. */
  rows: TornadoRow[];
  /** Knobs whose moves changed no run's ETTR under any policy on any seed: left out of the chart. */
  inert: { axis: SweepAxisId; label: string; seeds: number }[];
  /** Whose lead the advantage bars show, over whom (null: one policy selected). */
  advantage: { subject: PolicyKey; reference: PolicyKey } | null;
  /** The base scenario's mean ETTR per policy (over the most seeds any row ran). */
  baseEttr: Partial<Record<PolicyKey, number>>;
  /** The widest ±95 % half-width of any bar end: what the precision stop compares. */
  worstHalf: number;
}

/** FT-HSDP's lead over the first other policy when FT-HSDP is selected; else the last over the first. */
export function advantagePair(policies: readonly PolicyKey[]): TornadoResult["advantage"] {
  if (policies.length < 2) return null;
  const subject = policies.includes("ftHsdp") ? "ftHsdp" : (policies.at(-1) as PolicyKey);
  const reference = policies.find((p) => p !== subject) as PolicyKey;
  return { subject, reference };
}

function mean(a: Float64Array, n: number): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += a[i] as number;
  return n > 0 ? s / n : Number.NaN;
}

/**
 * The bars of a tornado from per-run ETTRs: `runs[k]` are plan.scenarios[k]'s, `seeds[k]` how
 * many of them are in (a row's ends and the base share seeds 0..n−1; n is the row's smallest).
 */
export function summarizeTornado(
  plan: TornadoPlan,
  runs: readonly EttrRuns[],
  seeds: readonly number[],
): TornadoResult {
  const adv = advantagePair(plan.policies);
  const base = runs[0] ?? {};
  const baseN = seeds[0] ?? 0;
  let worstHalf = 0;
  let k = 1;
  const all: TornadoRow[] = plan.rows.map((row) => {
    const idx = row.ends.map((_, i) => k + i);
    k += row.ends.length;
    const n = Math.min(baseN, ...idx.map((i) => seeds[i] ?? 0));
    const barOf = (series: TornadoBar["series"], at: (e: EttrRuns) => Float64Array | null): TornadoBar => {
      const b = at(base);
      const segments = idx.map((ix, end) => {
        const a = at(runs[ix] ?? {});
        const c = a && b ? pairedChange(a, b, n) : { mean: 0, half: Number.POSITIVE_INFINITY };
        return { end, text: row.ends[end]?.text ?? "", change: c.mean, half: c.half };
      });
      for (const s of segments) worstHalf = Math.max(worstHalf, s.half);
      const changes = segments.map((s) => s.change);
      return { series, segments, lo: Math.min(0, ...changes), hi: Math.max(0, ...changes) };
    };
    const bars = plan.policies.map((p) => barOf(p, (e) => e[p] ?? null));
    if (adv) {
      bars.push(
        barOf("advantage", (e) => {
          const s = e[adv.subject];
          const r = e[adv.reference];
          if (!s || !r) return null;
          const d = new Float64Array(n);
          for (let i = 0; i < n; i++) d[i] = (s[i] as number) - (r[i] as number);
          return d;
        }),
      );
    }
    const size = Math.max(0, ...bars.filter((b) => b.series !== "advantage").map((b) => b.hi - b.lo));
    return { plan: row, bars, size, seeds: n };
  });
  // Every paired difference exactly 0 (mean and spread): the knob feeds nothing these policies read here.
  const isInert = (r: TornadoRow) =>
    r.seeds >= 2 && r.bars.every((b) => b.segments.every((s) => s.change === 0 && s.half === 0));
  const inert = all.filter(isInert).map((r) => ({ axis: r.plan.axis, label: r.plan.label, seeds: r.seeds }));
  const rows = all.filter((r) => !isInert(r));
  rows.sort((a, b) => b.size - a.size || a.plan.label.localeCompare(b.plan.label));
  const baseEttr: Partial<Record<PolicyKey, number>> = {};
  for (const p of plan.policies) {
    const a = base[p];
    if (a) baseEttr[p] = mean(a, baseN);
  }
  return { rows, inert, advantage: adv, baseEttr, worstHalf };
}

/** Which scenarios (indices into plan.scenarios) still need seeds: those of rows not yet precise, and the base. */
export function scenariosNeedingSeeds(
  plan: TornadoPlan,
  result: TornadoResult,
  precision: number,
  seeds: readonly number[],
  maxSeeds: number,
): number[] {
  const need = new Set<number>();
  let k = 1;
  const imprecise = new Set(
    result.rows
      .filter((r) => r.bars.some((b) => b.segments.some((s) => s.half > precision)))
      .map((r) => r.plan),
  );
  for (const row of plan.rows) {
    const idx = row.ends.map((_, i) => k + i);
    k += row.ends.length;
    if (!imprecise.has(row)) continue;
    for (const i of idx) if ((seeds[i] ?? 0) < maxSeeds) need.add(i);
  }
  if (need.size > 0 && (seeds[0] ?? 0) < maxSeeds) need.add(0);
  return [...need].sort((a, b) => a - b);
}

function points(v: number): string {
  const p = v * 100;
  return `${p >= 0 ? "+" : "−"}${Math.abs(p).toFixed(1)}`;
}

/**
 * One sentence from the bars, ranking knobs exactly as the chart does (by the widest policy bar):
 * the top rows whose effect is larger than its own uncertainty, and what moving the first does to
 * the policy it moves most.
 */
export function tornadoSentence(result: TornadoResult, policies: readonly PolicyKey[]): string {
  const what = policies.length === 1 ? `${policyOf(policies[0] as PolicyKey).label}'s ETTR` : "ETTR";
  const widest = (r: TornadoRow) =>
    r.bars
      .filter((b) => b.series !== "advantage")
      .reduce<TornadoBar | null>((w, b) => (w && w.hi - w.lo >= b.hi - b.lo ? w : b), null);
  const ranked = result.rows.filter((r) => {
    const bar = widest(r);
    return bar?.segments.some((s) => Math.abs(s.change) - s.half > 0) === true;
  });
  const first = ranked[0];
  const bar = first ? widest(first) : null;
  if (!first || !bar) return `${what} moves by less than its own uncertainty whichever knob is moved.`;
  // "moved from Unlimited to Limited (spare hosts 32, not 0), FT-HSDP's ETTR changes by −58.5
  // points; to …, by … points": each end with its change, in words.
  const whose = policies.length === 1 ? "it" : `${policyOf(bar.series).label}'s ETTR`;
  const ends = bar.segments
    .map((s, i) =>
      i === 0
        ? `moved from ${first.plan.baseText} to ${s.text}, ${whose} changes by ${points(s.change)} points`
        : `to ${s.text}, by ${points(s.change)} points`,
    )
    .join("; ");
  const then = ranked.slice(1, 3).map((x) => x.plan.label);
  return `${what} depends most on ${first.plan.label}: ${ends}.${then.length > 0 ? ` Then on ${then.join(" and ")}.` : ""}`;
}
