/**
 * Whether the sweep chart's ETTR axis is zoomed to the curves. The person's choice, if made
 * (the checkbox, or a link: `zoom` in sw= is zoomed, its absence 0–100 % as links before this
 * showed); until then zoomed when every curve's p5–p95 lies within NARROW_SPAN of the 0–100 %
 * axis, where a peak of a few points would hide on the full axis.
 */
import type { PolicyKey } from "../sim/policies/policyKeys.ts";
import type { MonteCarloResult, Summary } from "../sim/types.ts";

/** The widest span of ETTR (a fraction) the curves may cover for the axis to zoom by default. */
export const NARROW_SPAN = 0.25;

/** The lowest p5 and the highest p95 of the ETTRs drawn, or null for none. */
export function ettrSpan(shown: readonly Summary[]): { lo: number; hi: number } | null {
  if (shown.length === 0) return null;
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const e of shown) {
    if (e.p5 < lo) lo = e.p5;
    if (e.p95 > hi) hi = e.p95;
  }
  return { lo, hi };
}

/** Zoomed: the person's choice, else whether the curves lie in a narrow band. */
export function sweepZoomed(choice: boolean | null, shown: readonly Summary[]): boolean {
  if (choice !== null) return choice;
  const span = ettrSpan(shown);
  return span !== null && span.hi - span.lo <= NARROW_SPAN;
}

/** The ETTRs a sweep's chart draws: every done point's, for each of the policies. */
export function sweepEttrs(
  results: readonly { mc: MonteCarloResult | null }[],
  policies: readonly PolicyKey[],
): Summary[] {
  return results.flatMap((r) => policies.flatMap((key) => r.mc?.[key]?.ettr ?? []));
}
