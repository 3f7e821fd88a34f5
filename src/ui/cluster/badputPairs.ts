/**
 * The comparison's badput side by side: for each strategy both scenarios run,
 * each badput category's Monte Carlo mean share of wall time in the baseline and in the scenario
 * on screen, and the difference with its 95 % half-width. The difference is the ETTR's
 * (pairedDifference, ettrDifference.ts) on that category's per-run shares: paired by seed over
 * the seeds both ran, unpaired when they share none. Categories that are zero in both are left out.
 */
import { type PairedDifference, pairedDifference } from "../../sim/monteCarlo/ettrDifference.ts";
import type { BadputSamples } from "../../sim/monteCarlo/mcStream.ts";
import type { PolicyKey } from "../../sim/policies/policyKeys.ts";
import { BADPUT_CATEGORIES, type BadputCategory, type MonteCarloResult } from "../../sim/types.ts";
import { count, pct } from "../format.ts";
import { deltaText, digitsFor } from "./deltaWords.ts";

/** A stopped Monte Carlo: its summary and the per-run badput shares it summarizes (run i is seed (seed + i) >>> 0). */
export interface BadputSide {
  result: MonteCarloResult;
  samples: BadputSamples;
}

export interface BadputCell {
  /**
   * The baseline's mean share and this one's (fractions of wall time) over the runs the difference
   * is over: every run of each when the two ran the same seeds or none in common; the seeds both
   * ran when they overlap in part, so that the two means and the difference add up.
   */
  base: number;
  current: number;
  /** This − baseline, with its 95 % half-width. */
  d: PairedDifference;
}

export interface BadputPair {
  category: BadputCategory;
  /** Per strategy in both. */
  cells: Partial<Record<PolicyKey, BadputCell>>;
}

/** The strategies both results ran, in the scenario on screen's order. */
export function sharedPolicies(base: MonteCarloResult, current: MonteCarloResult): PolicyKey[] {
  return current.scenario.policies.filter((k) => base[k] !== undefined && current[k] !== undefined);
}

export function badputPairs(base: BadputSide, current: BadputSide): BadputPair[] {
  const keys = sharedPolicies(base.result, current.result);
  const rows: BadputPair[] = [];
  for (const category of BADPUT_CATEGORIES) {
    const cells: BadputPair["cells"] = {};
    let any = false;
    for (const k of keys) {
      const b = base.samples[k]?.[category];
      const c = current.samples[k]?.[category];
      if (!b || !c) throw new RangeError(`no per-run badput of ${k}`);
      if (b.length !== base.result.seeds || c.length !== current.result.seeds)
        throw new RangeError(`the per-run badput of ${k} is not the summary's runs`);
      const d = pairedDifference(
        { samples: c, seed: current.result.scenario.seed },
        { samples: b, seed: base.result.scenario.seed },
      );
      if (!d) continue;
      const cell =
        d.kind === "paired"
          ? { base: d.bMean, current: d.aMean, d }
          : {
              base: base.result[k]?.badput[category].mean ?? 0,
              current: current.result[k]?.badput[category].mean ?? 0,
              d,
            };
      cells[k] = cell;
      // Left out only when no run of either lost anything to it (a share is never negative).
      any ||= b.some((x) => x > 0) || c.some((x) => x > 0);
    }
    if (any) rows.push({ category, cells });
  }
  return rows;
}

/**
 * What every difference in the table is over (one basis for all: each strategy of a Monte Carlo
 * ran the same seeds), as deltaBasis says it for an ETTR difference: "paired by seed, 40 runs";
 * the seeds both ran when they overlap in part; or unpaired.
 */
export function badputBasis(d: PairedDifference, runs: number, baseRuns: number): string {
  const counts = `${count(baseRuns)} and ${count(runs)} runs`;
  if (d.kind === "unpaired") return `unpaired: the baseline ran none of these seeds; ${counts}`;
  if (d.n === runs && d.n === baseRuns) return `paired by seed, ${count(d.n)} runs`;
  const which =
    d.n === 1
      ? `the one seed both ran, ${d.firstSeed}`
      : `the ${count(d.n)} seeds both ran, ${d.firstSeed}–${(d.firstSeed + d.n - 1) >>> 0}`;
  return `paired by seed over ${which}, of ${counts}: the means are over those seeds too`;
}

/**
 * "12.3% → 10.1% (−2.2 ± 0.4 points)": a share in the baseline, here, and the difference with its
 * 95 % half-width; the shares with as many decimals as the half-width needs (deltaText's). A share
 * that is zero in every run of both is "none in either"; one that is the same seed for seed (a
 * knob that does not touch it) says so, rather than "+0.00 ± 0.00 points".
 */
export function shareText(cell: Pick<BadputCell, "base" | "current" | "d">): string {
  const [shares, change] = shareParts(cell);
  return change ? `${shares} (${change})` : shares;
}

/** shareText in its two parts, the shares and what changed (null for "none in either"), for a cell to lay out. */
export function shareParts(cell: Pick<BadputCell, "base" | "current" | "d">): [string, string | null] {
  const { base, current, d } = cell;
  if (base === 0 && current === 0) return ["none in either", null];
  const dig = digitsFor(d.half * 100);
  const shares = `${pct(base, dig)} → ${pct(current, dig)}`;
  if (d.kind === "paired" && d.n > 1 && d.mean === 0 && d.half === 0) return [shares, "no change in any run"];
  return [shares, deltaText(d)];
}
