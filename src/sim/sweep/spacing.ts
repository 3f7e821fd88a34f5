/**
 * The numbers of a sweep: a person's range (checked, then narrowed to the axis's bounds), and the
 * points spaced along it, linearly or on a log scale.
 */

/** A person's range for the swept value, in the axis's unit. */
export interface SweepRange {
  from: number;
  to: number;
}

/** Why `range` cannot be swept, naming the fields, or null. */
export function sweepRangeProblem(range: SweepRange): string | null {
  const { from, to } = range;
  if (!Number.isFinite(from) || !Number.isFinite(to) || from < 0 || to < 0)
    return "Sweep from / to: must be numbers ≥ 0.";
  if (from >= to) return `Sweep from / to: from (${from}) must be below to (${to}).`;
  return null;
}

/** [lo, hi] narrowed to the person's range (kept inside the axis's own bounds). */
export function narrow(lo: number, hi: number, range: SweepRange | null): [number, number] {
  if (!range) return [lo, hi];
  const a = Math.min(Math.max(range.from, lo), hi);
  const b = Math.max(Math.min(range.to, hi), a);
  return [a, b];
}

export function logSpaced(lo: number, hi: number, n: number): number[] {
  if (n === 1 || lo === hi) return [lo];
  const a = Math.log(lo);
  const b = Math.log(hi);
  return Array.from({ length: n }, (_, i) => Math.exp(a + ((b - a) * i) / (n - 1)));
}

export function linSpaced(lo: number, hi: number, n: number): number[] {
  if (n === 1 || lo === hi) return [lo];
  return Array.from({ length: n }, (_, i) => lo + ((hi - lo) * i) / (n - 1));
}

export function distinctSorted(xs: number[]): number[] {
  return [...new Set(xs)].sort((a, b) => a - b);
}

/** The value of `xs` nearest to v (the first of two as near), or undefined when xs is empty. */
export function nearest(xs: readonly number[], v: number): number | undefined {
  let best: number | undefined;
  for (const x of xs) if (best === undefined || Math.abs(x - v) < Math.abs(best - v)) best = x;
  return best;
}

/** Up to n of `xs` (sorted), picked evenly by index: divisors are already spread on a log scale. */
export function pickEvenly(xs: readonly number[], n: number): number[] {
  return xs.length <= n
    ? [...xs]
    : distinctSorted(linSpaced(0, xs.length - 1, n).map((i) => xs[Math.round(i)] ?? 1));
}
