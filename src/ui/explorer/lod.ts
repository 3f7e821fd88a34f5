/**
 * Level of detail for the timeline canvas. Whatever the zoom, a lane turns into at most one
 * rectangle per interval wider than a pixel plus one per pixel column for everything narrower:
 * sub-pixel intervals in the same column merge into one 1-px mark that keeps the most important
 * state (a larger kind wins) and how much of the column they cover, so a month of 3-minute stalls
 * reads as the 15 % it is, not as a solid band. Work per frame is bounded by what is visible,
 * found by binary search.
 */

/*
 * The timeline's level-of-detail thresholds, named (Perfetto's UI is the model): each track
 * reduces what it draws to what its pixels can show, by these.
 */
/** Replicas share a lane rather than get one thinner than this. */
export const MIN_LANE_PX = 3;
/** Lanes this tall or taller get a 1-px separator. */
export const LANE_SEPARATOR_PX = 6;
/** Lane labels need this much height (px of font); thinner lanes label every n-th lane. */
export const LANE_LABEL_PX = 5;
/** Fewer visible rack events than plot width / this: each gets its own connector and label. */
export const SPARSE_EVENT_PX = 10;
/** A rack's label sits inside its first lane from this lane height, above it below. */
export const LABEL_IN_LANE_PX = 12;
/** Replica lanes per draw step: a few ms each however dense the run. */
export const LANES_PER_STEP = 16;
/** …and at most this many rows (past one lane): a million-failure run's 12 lanes take a step each. */
export const ROWS_PER_STEP = 100_000;

/** Interval rows grouped by lane (a replica, or a group of replicas), each lane sorted by start. */
export interface LaneIndex {
  lanes: number;
  /** Lane l's rows are rows[offsets[l] .. offsets[l + 1]). */
  offsets: Int32Array;
  rows: Int32Array;
  /** Longest interval per lane: how far before t0 a visible interval may start. */
  maxDuration: Float64Array;
}

/**
 * Group rows (given sorted by start) by lane, keeping start order inside each lane.
 * `laneOf(i)` < 0 leaves row i out.
 */
export function buildLaneIndex(
  n: number,
  lanes: number,
  laneOf: (i: number) => number,
  start: ArrayLike<number>,
  end: ArrayLike<number>,
): LaneIndex {
  const lane = new Int32Array(n);
  for (let i = 0; i < n; i++) lane[i] = laneOf(i);
  return groupByLane(lane, lanes, start, end);
}

/** The index of rows whose lanes are given (row i in lane[i]; outside 0..lanes−1: left out). */
function groupByLane(
  lane: Int32Array,
  lanes: number,
  start: ArrayLike<number>,
  end: ArrayLike<number>,
): LaneIndex {
  const n = lane.length;
  const offsets = new Int32Array(lanes + 1);
  for (let i = 0; i < n; i++) {
    const l = lane[i] as number;
    if (l >= 0 && l < lanes) offsets[l + 1] = (offsets[l + 1] as number) + 1;
  }
  for (let l = 0; l < lanes; l++) offsets[l + 1] = (offsets[l + 1] as number) + (offsets[l] as number);
  const fill = offsets.slice(0, lanes);
  const rows = new Int32Array(offsets[lanes] as number);
  const maxDuration = new Float64Array(lanes);
  for (let i = 0; i < n; i++) {
    const l = lane[i] as number;
    if (l < 0 || l >= lanes) continue;
    const at = fill[l] as number;
    rows[at] = i;
    fill[l] = at + 1;
    const d = (end[i] as number) - (start[i] as number);
    if (d > (maxDuration[l] as number)) maxDuration[l] = d;
  }
  return { lanes, offsets, rows, maxDuration };
}

/**
 * Rows grouped by lane floor(key[i] / group) (a negative key leaves row i out): buildLaneIndex
 * with the lane read from an array, not through a callback. The same index; one loop that V8
 * compiles for its arrays, where the shared callback site (several tracks' callbacks) went
 * megamorphic and cost the page ~100 ms on a million rows.
 */
export function laneIndexByKey(
  key: ArrayLike<number>,
  group: number,
  lanes: number,
  start: ArrayLike<number>,
  end: ArrayLike<number>,
): LaneIndex {
  const n = key.length;
  const lane = new Int32Array(n);
  for (let i = 0; i < n; i++) lane[i] = Math.floor((key[i] as number) / group);
  return groupByLane(lane, lanes, start, end);
}

/** Point rows (start = end) indexed once per array: the sync and job lanes share the failures'. */
const pointLanes = new WeakMap<object, LaneIndex>();

/** All rows in one lane (already sorted by start): the rows in order, in one pass. */
export function singleLane(start: ArrayLike<number>, end: ArrayLike<number>): LaneIndex {
  const points = start === end && typeof start === "object";
  const cached = points ? pointLanes.get(start) : undefined;
  if (cached) return cached;
  const n = start.length;
  const rows = new Int32Array(n);
  let longest = 0;
  for (let i = 0; i < n; i++) {
    rows[i] = i;
    const d = (end[i] as number) - (start[i] as number);
    if (d > longest) longest = d;
  }
  const idx = { lanes: 1, offsets: Int32Array.of(0, n), rows, maxDuration: Float64Array.of(longest) };
  if (points) pointLanes.set(start, idx);
  return idx;
}

/** Pixel rectangles of one lane, reused from frame to frame. */
export class Runs {
  n = 0;
  x0 = new Float32Array(256);
  x1 = new Float32Array(256);
  kind = new Uint8Array(256);
  /** Share of the mark's width its intervals cover (1 for intervals wider than a pixel). */
  cover = new Float32Array(256);

  clear(): void {
    this.n = 0;
  }

  push(x0: number, x1: number, kind: number, cover = 1): void {
    if (this.n === this.x0.length) {
      const grow = <T extends Float32Array | Uint8Array>(a: T, make: (n: number) => T): T => {
        const b = make(a.length * 2);
        b.set(a);
        return b;
      };
      this.x0 = grow(this.x0, (n) => new Float32Array(n));
      this.x1 = grow(this.x1, (n) => new Float32Array(n));
      this.kind = grow(this.kind, (n) => new Uint8Array(n));
      this.cover = grow(this.cover, (n) => new Float32Array(n));
    }
    this.x0[this.n] = x0;
    this.x1[this.n] = x1;
    this.kind[this.n] = kind;
    this.cover[this.n] = cover;
    this.n++;
  }
}

/** The horizontal mapping of one frame: time t is drawn at left + (t − t0) · pxPerSecond. */
export interface View {
  t0: number;
  t1: number;
  left: number;
  width: number;
}

/** First position in lane rows whose interval may reach t (start ≥ t − longest interval). */
function firstCandidate(idx: LaneIndex, lane: number, start: ArrayLike<number>, t: number): number {
  let lo = idx.offsets[lane] as number;
  let hi = idx.offsets[lane + 1] as number;
  const from = t - (idx.maxDuration[lane] as number);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((start[idx.rows[mid] as number] as number) < from) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Append the visible intervals of `lane` to `out` as pixel runs. `kind[row]` (0 = skip) decides
 * both the colour and which state wins a shared pixel column.
 */
export function laneRuns(
  idx: LaneIndex,
  lane: number,
  start: ArrayLike<number>,
  end: ArrayLike<number>,
  kind: (row: number) => number,
  view: View,
  out: Runs,
): void {
  const { t0, t1, left, width } = view;
  const k = width / (t1 - t0);
  const right = left + width;
  const stop = idx.offsets[lane + 1] as number;
  let col = -1;
  let colKind = 0;
  let colCover = 0;
  for (let p = firstCandidate(idx, lane, start, t0); p < stop; p++) {
    const row = idx.rows[p] as number;
    const a = start[row] as number;
    if (a > t1) break;
    const b = end[row] as number;
    if (b < t0) continue;
    const kd = kind(row);
    if (kd === 0) continue;
    const x0 = left + (a - t0) * k;
    const x1 = left + (b - t0) * k;
    if (x1 - x0 >= 1) {
      out.push(Math.max(left, x0), Math.min(right, x1), kd);
      continue;
    }
    const c = Math.floor(x0);
    const cover = Math.min(x1, right) - Math.max(x0, left);
    if (c === col) {
      if (kd > colKind) colKind = kd;
      colCover += cover;
      continue;
    }
    if (col >= 0) out.push(col, col + 1, colKind, Math.min(1, colCover));
    col = c;
    colKind = kd;
    colCover = cover;
  }
  if (col >= 0) out.push(Math.max(left, col), Math.min(right, col + 1), colKind, Math.min(1, colCover));
}

/**
 * A curve thinned to what `columns` pixel columns can show: in each column its first, lowest,
 * highest and last points, in time order, so drops (a rollback) survive any zoom.
 */
export function decimateCurve(
  t: ArrayLike<number>,
  y: ArrayLike<number>,
  columns: number,
): { t: number[]; y: number[] } {
  const n = t.length;
  if (n <= columns * 4) return { t: Array.from(t), y: Array.from(y) };
  const t0 = t[0] as number;
  const span = Math.max(1e-9, (t[n - 1] as number) - t0);
  const outT: number[] = [];
  const outY: number[] = [];
  let i = 0;
  while (i < n) {
    const col = Math.floor((((t[i] as number) - t0) / span) * columns);
    const first = i;
    let lo = i;
    let hi = i;
    while (i < n && Math.floor((((t[i] as number) - t0) / span) * columns) === col) {
      if ((y[i] as number) < (y[lo] as number)) lo = i;
      if ((y[i] as number) > (y[hi] as number)) hi = i;
      i++;
    }
    const keep = [...new Set([first, lo, hi, i - 1])].sort((a, b) => a - b);
    for (const k of keep) {
      outT.push(t[k] as number);
      outY.push(y[k] as number);
    }
  }
  return { t: outT, y: outY };
}
