/**
 * The cause mix (`failures.causes`) is a list, so its axes come from the scenario: each cause i
 * gives `cause.i.share` (its share of all failures, with two causes or more) and `cause.i.scope`
 * (its scope, as categories). An axis names the cause by its place in the list, as the
 * validator's messages do (`failures.causes[i]`), not by its name: a name is free text (it may
 * hold the `,` and `~` that delimit a link, and two causes may share one), while the place is
 * one short number that a link can carry and check. A link whose scenario has no cause i is
 * refused by name (causeAxisProblem).
 */
import {
  type CauseScope,
  type FailureCause,
  FIELD_SPECS,
  MAX_CAUSES,
  type ScalarSpec,
  type Scenario,
} from "../scenario/index.ts";
import { distinctSorted, linSpaced, narrow, type SweepRange } from "./spacing.ts";
import type { CauseAxisId, CauseAxisKey, SweepAxisInfo, SweepPoint } from "./types.ts";

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

function scopes(): readonly string[] {
  const spec = causeItemSpec("scope");
  return spec.kind === "enum" ? spec.values : [];
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

export function causeAxisInfo(
  index: number,
  key: CauseAxisKey,
  cause: FailureCause | undefined,
): SweepAxisInfo {
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
  return {
    id,
    label: `Cause scope: ${who}`,
    shortLabel: `Scope: ${who}`,
    unit: "",
    log: false,
    cause: { index, key },
    categories: scopes().map((value) => ({ value, label: value })),
  };
}

/** The cause axes of a scenario's list: each cause's scope, and its share when there are two causes or more. */
export function causeAxes(s: Scenario): SweepAxisInfo[] {
  const causes = s.failures.causes;
  return causes.flatMap((c, i) => [
    ...(causes.length >= 2 ? [causeAxisInfo(i, "share", c)] : []),
    causeAxisInfo(i, "scope", c),
  ]);
}

/** Why `s` has no such cause axis (a cause it does not list), naming the axis and the causes, or null. */
export function causeAxisProblem(
  s: Scenario,
  id: string,
  c: { index: number; key: CauseAxisKey },
): string | null {
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

/** The shares a range of cause i's share axis may take. */
export function causeShareBounds(s: Scenario, i: number): { lo: number; hi: number } {
  return { lo: CAUSE_SHARE_MIN, hi: shareMax(s.failures.causes, i) };
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

/** Where `s` sits on a cause's axis: its share of all failures, or its scope's index. */
export function causeValue(s: Scenario, index: number, key: CauseAxisKey): number | null {
  const causes = s.failures.causes;
  const c = causes[index];
  if (!c) return null;
  if (key === "scope") {
    const i = scopes().indexOf(c.scope);
    return i >= 0 ? i : null;
  }
  const total = c.share + othersWeight(causes, index);
  return total > 0 ? c.share / total : null;
}

/** The scenario with a cause's axis at v (a share snapped to the grid, a scope's index), unchecked. */
export function causePointAt(base: Scenario, id: string, v: number): SweepPoint | null {
  const c = causeAxisOf(id);
  if (!c || causeAxisProblem(base, id, c)) return null;
  if (c.key === "scope") {
    const scope = scopes()[Math.round(v)];
    return scope === undefined
      ? null
      : { x: Math.round(v), scenario: withCauseScope(base, c.index, scope as CauseScope) };
  }
  const x =
    Math.round(Math.min(shareMax(base.failures.causes, c.index), Math.max(CAUSE_SHARE_MIN, v)) * SHARE_GRID) /
    SHARE_GRID;
  return { x, scenario: withCauseShare(base, c.index, x) };
}

/** A sweep of a cause's axis: every scope, or n shares (5 %–95 % stretched to the cause's own, or the range). */
export function causePoints(base: Scenario, id: string, n: number, range: SweepRange | null): SweepPoint[] {
  const c = causeAxisOf(id);
  if (!c || causeAxisProblem(base, id, c)) return [];
  if (c.key === "scope")
    return scopes().map((scope, x) => ({ x, scenario: withCauseScope(base, c.index, scope as CauseScope) }));
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
