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
  return fillLanes(lane, countLanes(lane, lanes), start, end);
}

/** Offsets of each lane's rows: lane l's rows will be [offsets[l], offsets[l + 1]). */
function countLanes(lane: Int32Array, lanes: number): Int32Array {
  const n = lane.length;
  const offsets = new Int32Array(lanes + 1);
  for (let i = 0; i < n; i++) {
    const l = lane[i] as number;
    if (l >= 0 && l < lanes) offsets[l + 1] = (offsets[l + 1] as number) + 1;
  }
  for (let l = 0; l < lanes; l++) offsets[l + 1] = (offsets[l + 1] as number) + (offsets[l] as number);
  return offsets;
}

/** The rows in their lanes, in start order, and each lane's longest interval. */
function fillLanes(
  lane: Int32Array,
  offsets: Int32Array,
  start: ArrayLike<number>,
  end: ArrayLike<number>,
): LaneIndex {
  const n = lane.length;
  const lanes = offsets.length - 1;
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
  let idx: LaneIndex | null = null;
  for (const step of laneIndexByKeySteps(key, group, lanes, start, end, (i) => {
    idx = i;
  }))
    step();
  if (!idx) throw new Error("laneIndexByKeySteps ended without an index");
  return idx;
}

/**
 * laneIndexByKey as two steps (the lanes and their counts, then the rows placed), handing the
 * index to `done` at the end: a million rows are never one task.
 */
export function laneIndexByKeySteps(
  key: ArrayLike<number>,
  group: number,
  lanes: number,
  start: ArrayLike<number>,
  end: ArrayLike<number>,
  done: (idx: LaneIndex) => void,
): (() => void)[] {
  let lane: Int32Array = new Int32Array(0);
  let offsets: Int32Array = new Int32Array(0);
  return [
    () => {
      const n = key.length;
      lane = new Int32Array(n);
      for (let i = 0; i < n; i++) lane[i] = Math.floor((key[i] as number) / group);
      offsets = countLanes(lane, lanes);
    },
    () => done(fillLanes(lane, offsets, start, end)),
  ];
}

/** Point rows (start = end) indexed once per array: the sync and job lanes share the failures'. */
const pointLanes = new WeakMap<object, LaneIndex>();

/** All rows in one lane (already sorted by start): the rows in order, in one pass. */
export function singleLane(start: ArrayLike<number>, end: ArrayLike<number>): LaneIndex {
  let idx: LaneIndex | null = null;
  for (const step of singleLaneSteps(start, end, (i) => {
    idx = i;
  }))
    step();
  if (!idx) throw new Error("singleLaneSteps ended without an index");
  return idx;
}

/** Rows a step of singleLaneSteps takes: a few ms however cold the code is. */
const SINGLE_LANE_ROWS_PER_STEP = 250_000;

/**
 * singleLane as steps of at most SINGLE_LANE_ROWS_PER_STEP rows, handing the index to `done` in
 * the last: its first pass over a million rows runs before the code is optimized (~40–85 ms of
 * CPU in one task on the page's first build, where later passes take 2–4 ms).
 */
export function singleLaneSteps(
  start: ArrayLike<number>,
  end: ArrayLike<number>,
  done: (idx: LaneIndex) => void,
): (() => void)[] {
  const points = start === end && typeof start === "object";
  const cached = points ? pointLanes.get(start) : undefined;
  if (cached) return [() => done(cached)];
  const n = start.length;
  let rows: Int32Array = new Int32Array(0);
  let longest = 0;
  const parts = Math.max(1, Math.ceil(n / SINGLE_LANE_ROWS_PER_STEP));
  return Array.from({ length: parts }, (_, k) => () => {
    if (k === 0) rows = new Int32Array(n);
    const to = Math.min(n, (k + 1) * SINGLE_LANE_ROWS_PER_STEP);
    for (let i = k * SINGLE_LANE_ROWS_PER_STEP; i < to; i++) {
      rows[i] = i;
      const d = (end[i] as number) - (start[i] as number);
      if (d > longest) longest = d;
    }
    if (k < parts - 1) return;
    // Another track may have indexed the same points while these steps ran: share its index.
    const again = points ? pointLanes.get(start) : undefined;
    if (again) return done(again);
    const idx = { lanes: 1, offsets: Int32Array.of(0, n), rows, maxDuration: Float64Array.of(longest) };
    if (points) pointLanes.set(start, idx);
    done(idx);
  });
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

/** First position in lane rows, from `from` on, whose interval starts after t (none after: the lane's end). */
function pastWindow(idx: LaneIndex, lane: number, start: ArrayLike<number>, t: number, from: number): number {
  let lo = from;
  let hi = idx.offsets[lane + 1] as number;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((start[idx.rows[mid] as number] as number) <= t) lo = mid + 1;
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
  const c = new LaneRunCursor(idx, lane, start, end, kind, view, out);
  c.advance(Number.POSITIVE_INFINITY);
}

/**
 * laneRuns a part at a time: `advance(rows)` scans up to `rows` more of the lane's rows and says
 * whether the lane is done (its last column then pushed). The pixel column being merged is carried
 * from one part to the next, so the runs are exactly laneRuns' however the lane is cut: a lane of
 * a million rows can be drawn over several tasks.
 */
export class LaneRunCursor {
  private p: number;
  private readonly stop: number;
  private col = -1;
  private colKind = 0;
  private colCover = 0;
  private done = false;

  constructor(
    private readonly idx: LaneIndex,
    lane: number,
    private readonly start: ArrayLike<number>,
    private readonly end: ArrayLike<number>,
    private readonly kind: (row: number) => number,
    private readonly view: View,
    private readonly out: Runs,
  ) {
    this.p = firstCandidate(idx, lane, start, view.t0);
    this.stop = pastWindow(idx, lane, start, view.t1, this.p);
  }

  /** Rows left to scan (those that start by the window's end). */
  get remaining(): number {
    return this.done ? 0 : this.stop - this.p;
  }

  advance(rows: number): boolean {
    if (this.done) return true;
    const { t0, t1, left, width } = this.view;
    const { start, end, kind, out } = this;
    const rowsOf = this.idx.rows;
    const k = width / (t1 - t0);
    const right = left + width;
    const stop = Math.min(this.stop, this.p + rows);
    let { col, colKind, colCover } = this;
    let p = this.p;
    // Rows are sorted by start and stop before the first that starts after t1 (pastWindow).
    for (; p < stop; p++) {
      const row = rowsOf[p] as number;
      const a = start[row] as number;
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
    this.p = p;
    this.col = col;
    this.colKind = colKind;
    this.colCover = colCover;
    if (p < this.stop) return false;
    this.done = true;
    if (col >= 0) out.push(Math.max(left, col), Math.min(right, col + 1), colKind, Math.min(1, colCover));
    return true;
  }
}

/**
 * One lane's runs and their drawing as draw steps of at most `rowsPerStep` rows each: the first
 * step clears `out`, the last one calls `draw` (which reads `out`). Each step returns the marks
 * it issued. The steps must run in order, with nothing else using `out` in between (a frame's
 * steps run in order; other tracks' steps come before or after).
 */
export function laneRunSteps(
  make: () => LaneRunCursor,
  out: Runs,
  rowsPerStep: number,
  draw: () => number,
): (() => number)[] {
  let cursor: LaneRunCursor | null = null;
  let drawn = false;
  const step = () => {
    if (drawn) return 0;
    if (!cursor) {
      out.clear();
      cursor = make();
    }
    if (!cursor.advance(rowsPerStep)) return 0;
    drawn = true;
    return draw();
  };
  // How many steps the lane needs is known only once the window's first row is found: a cursor
  // made now (a binary search) tells, and the steps then start from it.
  const probe = make();
  const n = Math.max(1, Math.ceil(probe.remaining / rowsPerStep));
  return Array.from({ length: n }, () => step);
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
