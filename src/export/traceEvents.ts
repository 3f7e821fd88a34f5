/**
 * The Trace Event format's pieces the cluster export is made of (Chrome / Perfetto JSON): the
 * event type, process and thread ids, and the slice writers every kind of track shares (metadata,
 * slices that tile a window, slices that need not). Times are µs from the start of the run.
 */

export interface TraceEvent {
  name: string;
  ph: "X" | "i" | "M" | "C";
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  s?: "g" | "p" | "t";
  cat?: string;
  args?: Record<string, string | number>;
}

/** [from, to] in seconds of the run: only what happens inside it is exported (slices are clipped). */
export type TraceWindow = readonly [number, number];

export interface TraceFile {
  traceEvents: TraceEvent[];
  displayTimeUnit: "ms";
  metadata: Record<string, unknown>;
}

/**
 * The job process of the k-th selected policy (display order): 1, 2, … (the default pair's
 * synchronous job is 1 and FT-HSDP's 2, as in every export so far).
 */
export const jobPid = (k: number): number => 1 + k;
/**
 * Replica r's process id, of the m-th replica-level policy selected (of a cluster of R replicas):
 * 10 + r for the first, as in every export so far.
 */
export const replicaPid = (r: number, m = 0, R = 0): number => 10 + m * R + r;
/** Threads of a job's process: its state (tiles the horizon), its job track, its rollbacks. */
export const STATE_TID = 1;
export const JOB_TID = 2;
export const ROLLBACK_TID = 3;

/** Seconds to the format's µs. */
export const us = (seconds: number): number => Math.round(seconds * 1e6);

export function* meta(
  pid: number,
  processName: string,
  threadName: string,
  sortIndex: number,
): Generator<TraceEvent> {
  yield { name: "process_name", ph: "M", pid, tid: 0, ts: 0, args: { name: processName } };
  yield { name: "process_sort_index", ph: "M", pid, tid: 0, ts: 0, args: { sort_index: sortIndex } };
  yield threadMeta(pid, STATE_TID, threadName);
}

export function threadMeta(pid: number, tid: number, name: string): TraceEvent {
  return { name: "thread_name", ph: "M", pid, tid, ts: 0, args: { name } };
}

/** One slice per row on a thread that need not tile the window (a job track); clipped to it. */
export function* jobSlices(
  pid: number,
  tid: number,
  rows: ArrayLike<number>,
  start: Float64Array,
  end: Float64Array,
  nameOf: (row: number) => string,
  [from, to]: TraceWindow,
  cat: string,
  argsOf?: (row: number) => Record<string, string | number>,
): Generator<TraceEvent> {
  const make = (i: number): TraceEvent | null => {
    const ts = us(Math.max(start[i] as number, from));
    const dur = us(Math.min(end[i] as number, to)) - ts;
    if (dur <= 0) return null;
    const e: TraceEvent = { name: nameOf(i), ph: "X", pid, tid, ts, dur, cat };
    if (argsOf) e.args = argsOf(i);
    return e;
  };
  // Rows in start order (every failure's restart; usually the job track too) stream out one by
  // one; only rows out of order are gathered and sorted, as the format wants slices in time order.
  let sorted = true;
  for (let k = 1; k < rows.length && sorted; k++)
    sorted = (start[rows[k] as number] as number) >= (start[rows[k - 1] as number] as number);
  if (sorted) {
    for (let k = 0; k < rows.length; k++) {
      const e = make(rows[k] as number);
      if (e) yield e;
    }
    return;
  }
  const out: TraceEvent[] = [];
  for (let k = 0; k < rows.length; k++) {
    const e = make(rows[k] as number);
    if (e) out.push(e);
  }
  out.sort((a, b) => a.ts - b.ts);
  yield* out;
}

/**
 * Slices for sorted, disjoint intervals on one track, with `gapName` slices filling the gaps
 * between them, so every instant of the window has a state.
 */
export function* trackSlices(
  pid: number,
  rows: ArrayLike<number> | null,
  start: Float64Array,
  end: Float64Array,
  nameOf: (row: number) => string,
  gapName: string,
  [from, to]: TraceWindow,
  cat: string,
): Generator<TraceEvent> {
  let cursor = from;
  const slice = (name: string, a: number, b: number): TraceEvent | null => {
    const ts = us(a);
    const dur = us(b) - ts;
    return dur > 0 ? { name, ph: "X", pid, tid: STATE_TID, ts, dur, cat } : null;
  };
  const n = rows ? rows.length : start.length;
  for (let k = 0; k < n; k++) {
    const i = rows ? (rows[k] as number) : k;
    const b = Math.min(end[i] as number, to);
    if (b <= from) continue;
    const a = Math.max(start[i] as number, from);
    if (a >= to) break;
    if (a > cursor) {
      const gap = slice(gapName, cursor, a);
      if (gap) yield gap;
    }
    const e = slice(nameOf(i), a, b);
    if (e) yield e;
    cursor = Math.max(cursor, b);
  }
  if (cursor < to) {
    const gap = slice(gapName, cursor, to);
    if (gap) yield gap;
  }
}

/** The rows i < n that `keep`. */
export function rowsWhere(n: number, keep: (i: number) => boolean): Int32Array {
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (keep(i)) out.push(i);
  return Int32Array.from(out);
}
