/**
 * Where a replay's one value falls among the fitted model's Monte Carlo runs (§5: "the real year
 * fell at the 12th percentile of the model's runs"): the mid-rank percentile, the share of runs
 * below the value plus half of those equal to it, so a value equal to every run is the 50th, not
 * the 0th or the 100th.
 */

export interface Placement {
  /** 0–100. */
  percentile: number;
  below: number;
  equal: number;
  runs: number;
}

/** Null without runs: there is nothing to place the value among. */
export function placeAmong(runs: ArrayLike<number>, value: number): Placement | null {
  const n = runs.length;
  if (n === 0) return null;
  let below = 0;
  let equal = 0;
  for (let i = 0; i < n; i++) {
    const x = runs[i]!;
    if (x < value) below++;
    else if (x === value) equal++;
  }
  return { percentile: (100 * (below + equal / 2)) / n, below, equal, runs: n };
}

/** "12th", "1st", "22nd", "93rd", "11th": a whole percentile as a person says it. */
export function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  const suffix = ["th", "st", "nd", "rd"][n % 10] ?? "th";
  return `${n}${suffix}`;
}

/**
 * "12th": the whole percentile, except that it never rounds to the 0th while some run lies at or
 * below the value, nor to the 100th while some run lies above it (a claim of "every run" false).
 */
export function nthPercentile(p: Placement): string {
  const whole = Math.round(p.percentile);
  if (whole === 0 && p.below + p.equal > 0) return ordinal(1);
  if (whole === 100 && p.below < p.runs) return ordinal(99);
  return ordinal(whole);
}
