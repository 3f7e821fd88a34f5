/**
 * Interval arithmetic on [start, end) spans, as HTA does it on its dataframes: the one module of it,
 * for the trace measures and the step timeline alike.
 */
export interface Interval {
  start: number;
  end: number;
}

/**
 * HTA's `merge_kernel_intervals` (hta/utils/utils.py): sort by start; a span joins the running
 * group unless it starts strictly after the group's largest end so far
 * (`ts > end.shift().cummax()`), so touching spans merge.
 */
export function mergeIntervals(spans: readonly Interval[]): Interval[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  const out: Interval[] = [];
  for (const s of sorted) {
    const last = out.at(-1);
    if (last !== undefined && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else out.push({ start: s.start, end: s.end });
  }
  return out;
}

export function totalLength(merged: readonly Interval[]): number {
  let t = 0;
  for (const s of merged) t += s.end - s.start;
  return t;
}

/** |a ∩ b| for two merged (disjoint, sorted) lists. */
export function intersectLength(a: readonly Interval[], b: readonly Interval[]): number {
  let i = 0;
  let j = 0;
  let total = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as Interval;
    const y = b[j] as Interval;
    total += Math.max(0, Math.min(x.end, y.end) - Math.max(x.start, y.start));
    if (x.end < y.end) i++;
    else j++;
  }
  return total;
}

/**
 * HTA's `_get_gpu_kernel_type_time` (hta/analyzers/breakdown_analysis.py): each class's merged
 * spans add `+bit` at their start and `−bit` at their end; a sweep over the sorted edges gives,
 * for every set of classes running together, how long exactly that set runs. Returns the time
 * of each non-empty bit mask.
 */
export function sweepByMask(classes: readonly (readonly Interval[])[]): Map<number, number> {
  const edges: { t: number; d: number }[] = [];
  classes.forEach((spans, k) => {
    const bit = 1 << k;
    for (const s of spans) edges.push({ t: s.start, d: bit }, { t: s.end, d: -bit });
  });
  edges.sort((a, b) => a.t - b.t);
  const out = new Map<number, number>();
  let running = 0;
  for (let i = 0; i < edges.length; i++) {
    const e = edges[i] as { t: number; d: number };
    running += e.d;
    const next = edges[i + 1];
    if (running > 0 && next !== undefined) out.set(running, (out.get(running) ?? 0) + (next.t - e.t));
  }
  return out;
}
