/**
 * The comparison's badput side by side (issue 39 item 2): for each strategy both scenarios run,
 * each badput category's Monte Carlo mean share of wall time in the baseline and in the scenario
 * on screen, and the difference of the means. Categories that are zero in both are left out.
 */
import type { PolicyKey } from "../../sim/policies/policyKeys.ts";
import { BADPUT_CATEGORIES, type BadputCategory, type MonteCarloResult } from "../../sim/types.ts";
import { pct } from "../format.ts";

export interface BadputPair {
  category: BadputCategory;
  /** Per strategy in both: baseline mean, this mean (fractions of wall time). */
  cells: Partial<Record<PolicyKey, { base: number; current: number }>>;
}

/** The strategies both results ran, in the scenario on screen's order. */
export function sharedPolicies(base: MonteCarloResult, current: MonteCarloResult): PolicyKey[] {
  return current.scenario.policies.filter((k) => base[k] !== undefined && current[k] !== undefined);
}

export function badputPairs(base: MonteCarloResult, current: MonteCarloResult): BadputPair[] {
  const keys = sharedPolicies(base, current);
  const rows: BadputPair[] = [];
  for (const category of BADPUT_CATEGORIES) {
    const cells: BadputPair["cells"] = {};
    let any = false;
    for (const k of keys) {
      const b = base[k]?.badput[category].mean ?? 0;
      const c = current[k]?.badput[category].mean ?? 0;
      cells[k] = { base: b, current: c };
      any ||= b > 0 || c > 0;
    }
    if (any) rows.push({ category, cells });
  }
  return rows;
}

/** "12.3% → 10.1% (−2.2 points)": a share in the baseline, here, and the difference of the means. */
export function shareText(b: number, c: number): string {
  const d = (c - b) * 100;
  const sign = d > 0 ? "+" : d < 0 ? "−" : "±";
  return `${pct(b)} → ${pct(c)} (${sign}${Math.abs(d).toFixed(1)} points)`;
}
