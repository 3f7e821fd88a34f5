/**
 * §5 "Causes": fault starts grouped by a chosen label; share = its starts / all starts. The
 * model takes at most 32 causes, so past 32 labels the smallest are merged into "other" (the 31
 * largest keep their names). Ties keep the order labels first appear in, so a fit is stable.
 */
export const MAX_CAUSES = 32;

export interface CauseShare {
  name: string;
  count: number;
  share: number;
}

/** Label counts (name, count) in first-seen order, to shares, largest first, merged past 32. */
export function causeShares(counts: readonly { name: string; count: number }[]): CauseShare[] {
  const total = counts.reduce((a, c) => a + c.count, 0);
  const ranked = counts
    .map((c, i) => ({ ...c, i }))
    .filter((c) => c.count > 0)
    .sort((a, b) => b.count - a.count || a.i - b.i);
  let kept = ranked;
  if (ranked.length > MAX_CAUSES) {
    kept = ranked.slice(0, MAX_CAUSES - 1);
    const rest = ranked.slice(MAX_CAUSES - 1).reduce((a, c) => a + c.count, 0);
    const other = kept.find((c) => c.name === "other");
    if (other) other.count += rest;
    else kept.push({ name: "other", count: rest, i: ranked.length });
  }
  return kept.map((c) => ({ name: c.name, count: c.count, share: total > 0 ? c.count / total : 0 }));
}

/** Counts of one label over a log's fault starts: `values` are the label's distinct values. */
export function labelCounts(
  values: readonly string[],
  perStart: Int32Array,
): { name: string; count: number }[] {
  const counts = new Float64Array(values.length);
  for (const v of perStart) counts[v]! += 1;
  return values.map((name, i) => ({ name, count: counts[i]! }));
}
