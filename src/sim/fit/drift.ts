/**
 * §5 "Drift": fault starts per 30-day window from the log's first timestamp, and whether one
 * constant rate fits them all: Pearson's chi-square against counts proportional to each window's
 * length (the last window may be short), df = windows − 1.
 */
import { chiSquarePValue } from "./specialFunctions.ts";
import { SECONDS_PER_DAY } from "./types.ts";

export const DRIFT_WINDOW_DAYS = 30;

export interface Drift {
  windows: number[];
  /** Null with fewer than two windows or no fault start (nothing to compare). */
  pValue: number | null;
}

export function driftOf(startSeconds: Float64Array, originSeconds: number, days: number): Drift {
  const width = DRIFT_WINDOW_DAYS * SECONDS_PER_DAY;
  const span = days * SECONDS_PER_DAY;
  const count = Math.max(1, Math.ceil(span / width - 1e-9));
  const windows = new Array<number>(count).fill(0);
  for (const t of startSeconds) {
    const w = Math.min(count - 1, Math.max(0, Math.floor((t - originSeconds) / width)));
    windows[w]! += 1;
  }
  const total = startSeconds.length;
  if (count < 2 || total === 0) return { windows, pValue: null };
  let stat = 0;
  for (let w = 0; w < count; w++) {
    const length = Math.min(width, span - w * width);
    const expected = (total * length) / span;
    stat += (windows[w]! - expected) ** 2 / expected;
  }
  return { windows, pValue: chiSquarePValue(stat, count - 1) };
}

const SUPERSCRIPT: Record<string, string> = {
  "-": "⁻",
  "0": "⁰",
  "1": "¹",
  "2": "²",
  "3": "³",
  "4": "⁴",
  "5": "⁵",
  "6": "⁶",
  "7": "⁷",
  "8": "⁸",
  "9": "⁹",
};

/**
 * A p-value as written: `digits` significant digits down to 1e-4 (0.0123), scientific below it
 * ("1.9e-17", or "1.9 × 10⁻¹⁷" with `superscript`), where a decimal would be a row of zeros.
 */
export function pValueText(p: number, digits: number, superscript = false): string {
  if (p >= 1e-4 || p === 0 || !Number.isFinite(p))
    return Number(p.toPrecision(digits)).toLocaleString("en-US", { maximumSignificantDigits: digits });
  const [mantissa, exponent] = p.toExponential(digits - 1).split("e");
  const m = String(Number(mantissa));
  const e = String(Number(exponent));
  if (!superscript) return `${m}e${e}`;
  return `${m} × 10${[...e].map((c) => SUPERSCRIPT[c] ?? c).join("")}`;
}
