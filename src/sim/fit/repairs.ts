/**
 * §5 "Repairs": each fault end closes its host's oldest open fault (started at or before it).
 * Starts come before ends at one instant, so a fault that ends as it starts lasts 0 hours. The
 * summary is over every matched duration; the lognormal fit (μ, σ of ln hours, by maximum
 * likelihood: their mean and population standard deviation) over the positive ones.
 */
import type { EventLog } from "./types.ts";

export interface Repairs {
  /** Matched durations, hours, ascending. */
  hours: Float64Array;
  /** Fault starts no end closed. */
  open: number;
  /** Ends with no open fault of their host before them (left out of the fit). */
  unmatchedEnds: number;
}

export interface RepairSummary {
  medianHours: number;
  meanHours: number;
  p90Hours: number;
  /** Null with fewer than two positive durations, or all equal (σ would be 0). */
  lognormal: { mu: number; sigma: number } | null;
}

export function matchRepairs(log: EventLog): Repairs {
  const open = new Map<number, number[]>();
  const heads = new Map<number, number>();
  const hours: number[] = [];
  let unmatchedEnds = 0;
  let s = 0;
  const starts = log.startSeconds;
  const ends = log.endSeconds;
  for (let e = 0; e < ends.length; e++) {
    const t = ends[e]!;
    for (; s < starts.length && starts[s]! <= t; s++) {
      const h = log.startHost[s]!;
      if (h < 0) continue; // job-wide: no host's end closes it
      let q = open.get(h);
      if (q === undefined) {
        q = [];
        open.set(h, q);
        heads.set(h, 0);
      }
      q.push(starts[s]!);
    }
    const h = log.endHost[e]!;
    const q = open.get(h);
    const head = heads.get(h) ?? 0;
    if (q === undefined || head >= q.length) {
      unmatchedEnds++;
      continue;
    }
    hours.push((t - q[head]!) / 3600);
    heads.set(h, head + 1);
  }
  let stillOpen = 0;
  for (let i = s; i < starts.length; i++) if (log.startHost[i]! >= 0) stillOpen++;
  for (const [h, q] of open) stillOpen += q.length - (heads.get(h) ?? 0);
  return { hours: Float64Array.from(hours).sort(), open: stillOpen, unmatchedEnds };
}

/** The q-quantile of ascending values, interpolated between neighbours (R's type 7). */
export function quantile(sorted: Float64Array, q: number): number {
  const at = (sorted.length - 1) * q;
  const i = Math.floor(at);
  const next = sorted[Math.min(i + 1, sorted.length - 1)]!;
  return sorted[i]! + (at - i) * (next - sorted[i]!);
}

/** The summary of matched durations; null when there are none. */
export function summarizeRepairs(hours: Float64Array): RepairSummary | null {
  if (hours.length === 0) return null;
  let sum = 0;
  for (const h of hours) sum += h;
  const logs = Array.from(hours)
    .filter((h) => h > 0)
    .map(Math.log);
  let lognormal: RepairSummary["lognormal"] = null;
  if (logs.length >= 2) {
    const mu = logs.reduce((a, b) => a + b, 0) / logs.length;
    const sigma = Math.sqrt(logs.reduce((a, l) => a + (l - mu) ** 2, 0) / logs.length);
    if (sigma > 0) lognormal = { mu, sigma };
  }
  return {
    medianHours: quantile(hours, 0.5),
    meanHours: sum / hours.length,
    p90Hours: quantile(hours, 0.9),
    lognormal,
  };
}

/** σ's range in the scenario (docs/model.md §5): the pool law stays within it. */
const SIGMA_RANGE = [0.01, 4] as const;

/**
 * The lognormal repair law a fit applies to the spare pool: the one whose mean is the log's mean
 * (hosts in repair, and so the spares they take, follow the mean: Little's law), with the log's
 * median where a lognormal can have both (mean above median, σ = √(2 ln(mean / median)) within
 * range); else the fitted σ, clamped, with the median that gives the log's mean. The
 * maximum-likelihood law (`lognormal`) stays the chart's: fitted to the ln of the positive
 * durations, its mean may be several times the log's (a 2.5 σ: 23× its median).
 */
export function poolRepairLaw(
  summary: RepairSummary,
): { medianHours: number; sigma: number; matches: "median and mean" | "mean" } | null {
  const law = summary.lognormal;
  if (!law || !(summary.meanHours > 0)) return null;
  const { medianHours: median, meanHours: mean } = summary;
  if (median > 0 && mean > median) {
    const sigma = Math.sqrt(2 * Math.log(mean / median));
    if (sigma >= SIGMA_RANGE[0] && sigma <= SIGMA_RANGE[1])
      return { medianHours: median, sigma, matches: "median and mean" };
  }
  const sigma = Math.min(SIGMA_RANGE[1], Math.max(SIGMA_RANGE[0], law.sigma));
  return { medianHours: mean / Math.exp((sigma * sigma) / 2), sigma, matches: "mean" };
}

/** The mean of a lognormal law of this median and σ. */
export function lognormalMean(medianHours: number, sigma: number): number {
  return medianHours * Math.exp((sigma * sigma) / 2);
}
