/**
 * Where a sweep's curve peaks, in words: per policy, the point with the highest mean
 * ETTR and whether it lies inside the range, above both ends. Read from the means on the chart,
 * so the sentence says what the curve shows and nothing more.
 */

export interface SweepPeak {
  /** The index of the highest mean (the first, when two are equal). */
  best: number;
  /** Strictly inside the swept range, above the means at both ends. */
  interior: boolean;
  /** Best mean minus the first point's and the last point's, in ETTR (fractions). */
  aboveFirst: number;
  aboveLast: number;
}

/** The peak of one curve of means in sweep order, or null for fewer than two points. */
export function sweepPeak(means: readonly number[]): SweepPeak | null {
  if (means.length < 2 || means.some((m) => !Number.isFinite(m))) return null;
  let best = 0;
  for (let i = 1; i < means.length; i++) if ((means[i] as number) > (means[best] as number)) best = i;
  const top = means[best] as number;
  const aboveFirst = top - (means[0] as number);
  const aboveLast = top - (means[means.length - 1] as number);
  return {
    best,
    interior: best > 0 && best < means.length - 1 && aboveFirst > 0 && aboveLast > 0,
    aboveFirst,
    aboveLast,
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const points = (x: number) => `${(x * 100).toFixed(1)} point${(x * 100).toFixed(1) === "1.0" ? "" : "s"}`;

/**
 * "FT-HSDP is best at 21.04 min: 82.3 %, above both ends (by 4.0 points at 1 min, by 2.0 points
 * at 120 min)." `at` writes an x with its unit; on a category axis the ends are not compared.
 * `partial`: the means are of the points done so far (a sweep running or cancelled), so the
 * sentence says "so far" and compares the lowest and highest values done, not the range's ends.
 */
export function sweepPeakWords(
  name: string,
  means: readonly number[],
  xs: readonly number[],
  at: (x: number) => string,
  categories: boolean,
  partial = false,
): string | null {
  const p = sweepPeak(means);
  if (!p) return null;
  // Every point the same to the bit: the knob does not reach this strategy (same seeds, same
  // failures), so there is no best to name.
  if (means.every((m) => m === means[0]))
    return `${name} does not move along this axis: ${pct(means[0] as number)} at every point${partial ? " done" : ""}.`;
  const x = xs[p.best] as number;
  const head = `${name} is best${partial ? " so far" : ""} at ${at(x)}: ${pct(means[p.best] as number)}`;
  if (categories) return `${head}.`;
  const first = at(xs[0] as number);
  const last = at(xs[xs.length - 1] as number);
  const ends = partial ? "the lowest and highest values done" : "both ends";
  const low = partial ? "the lowest value done" : "the low end of the range";
  const high = partial ? "the highest value done" : "the high end of the range";
  if (p.interior)
    return `${head}, above ${ends} (by ${points(p.aboveFirst)} at ${first}, by ${points(p.aboveLast)} at ${last}).`;
  if (p.best === 0) return `${head}, ${low} (${points(p.aboveLast)} above ${last}).`;
  if (p.best === means.length - 1) return `${head}, ${high} (${points(p.aboveFirst)} above ${first}).`;
  return `${head}, level with ${partial ? high : "the high end"} (${last}).`;
}

/**
 * What the sentences are of, when not of the whole sweep: "Of the 7 points done out of 20 (the
 * sweep is running):". Null when every point is done.
 */
export function sweepPartialWords(done: number, total: number, status: string): string | null {
  if (done >= total) return null;
  const why =
    status === "running"
      ? "the sweep is running"
      : status === "cancelled"
        ? "the sweep was cancelled"
        : "the sweep stopped";
  return `Of the ${done} point${done === 1 ? "" : "s"} done out of ${total} (${why}), not the whole range:`;
}

/**
 * A knob's label inside a sentence: its first letter in lower case unless the first word is an
 * acronym ("Sync every (H)" → "sync every (H)", "FT-HSDP: Replica restart" unchanged); the rest as
 * written, so symbols and units keep their case.
 */
export function inSentence(label: string): string {
  const [a, b] = label;
  if (a === undefined || (b !== undefined && b !== b.toLowerCase())) return label;
  return a.toLowerCase() + label.slice(1);
}
