/**
 * Two views of a run's slow episodes (docs/model.md §6) that the timeline and the Perfetto export
 * both draw: how many hosts are slow at once, as a step function, and the evictions that fell
 * inside the run. Pure, and read-only on the engine's episodes (slowEpisodes.ts draws them).
 */
import type { SlowEpisodes } from "./slowTypes.ts";

/** Episodes whose eviction fell inside the run (an eviction at or past the horizon never happened). */
export function evictionsIn(ep: SlowEpisodes, horizon: number): Int32Array {
  const rows: number[] = [];
  for (let e = 0; e < ep.count; e++) if (ep.evicted[e] === 1 && (ep.end[e] as number) < horizon) rows.push(e);
  return Int32Array.from(rows).sort((a, b) => (ep.end[a] as number) - (ep.end[b] as number) || a - b);
}

/**
 * How many hosts are slow from t[i] until t[i + 1] (n[i]), as a step function from 0: each
 * episode adds one from its start and takes it away at its end (clipped to the horizon).
 */
export function slowCount(
  ep: SlowEpisodes,
  horizon: number,
): { t: Float64Array; n: Int32Array; max: number } {
  const ends = Float64Array.from(ep.end.subarray(0, ep.count), (e) => Math.min(e, horizon)).sort();
  const t = new Float64Array(2 * ep.count + 1);
  const n = new Int32Array(2 * ep.count + 1);
  let k = 1;
  let now = 0;
  let max = 0;
  let a = 0;
  let b = 0;
  while (a < ep.count || b < ends.length) {
    // An end before (or at) the next start is taken first: back-to-back episodes do not overlap.
    const s = a < ep.count ? (ep.start[a] as number) : Number.POSITIVE_INFINITY;
    const e = b < ends.length ? (ends[b] as number) : Number.POSITIVE_INFINITY;
    let at: number;
    if (e <= s) {
      at = e;
      now--;
      b++;
    } else {
      at = s;
      now++;
      a++;
    }
    if (now > max) max = now;
    // Changes at one instant collapse into one step.
    if (t[k - 1] === at && k > 1) n[k - 1] = now;
    else {
      t[k] = at;
      n[k] = now;
      k++;
    }
  }
  return { t: t.slice(0, k), n: n.slice(0, k), max };
}
