/**
 * The cluster timeline as Chrome / Perfetto Trace Event JSON (open it at ui.perfetto.dev):
 * one process for the synchronous job, one for the FT-HSDP job as a whole (its global stalls),
 * one per FT-HSDP replica. States are complete ("X") slices, failures instant ("i") events,
 * useful training so far a counter ("C") on each job; names come from process_name / thread_name
 * metadata. Times are µs from the start of the run.
 *
 * A replica's own slices are its recovery phases and "healthy" between them; whether a healthy
 * replica trains or waits is the job's state, shown once on the FT-HSDP job track rather than
 * copied onto every replica (that would grow as replicas × failures).
 */
import { derived, type Scenario } from "../sim/scenario.ts";
import { FtPhase, SyncState, type Trace } from "../sim/types.ts";

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

export interface TraceFile {
  traceEvents: TraceEvent[];
  displayTimeUnit: "ms";
  metadata: Record<string, unknown>;
}

export const SYNC_PID = 1;
export const FT_JOB_PID = 2;
/** Replica r's process id. */
export const replicaPid = (r: number): number => 10 + r;

export const PHASE_NAMES: Record<number, string> = {
  [FtPhase.detect]: "down: detect",
  [FtPhase.restart]: "down: restart",
  [FtPhase.catchUp]: "catching up",
  [FtPhase.rejoin]: "rejoining",
};

export const SYNC_STATE_NAMES: Record<number, string> = {
  [SyncState.recovering]: "recovering",
  [SyncState.checkpointing]: "checkpointing",
  [SyncState.rolledBack]: "rolled back (work lost)",
};

const us = (seconds: number): number => Math.round(seconds * 1e6);

function meta(pid: number, processName: string, threadName: string, sortIndex: number): TraceEvent[] {
  return [
    { name: "process_name", ph: "M", pid, tid: 0, ts: 0, args: { name: processName } },
    { name: "process_sort_index", ph: "M", pid, tid: 0, ts: 0, args: { sort_index: sortIndex } },
    { name: "thread_name", ph: "M", pid, tid: 1, ts: 0, args: { name: threadName } },
  ];
}

/**
 * Slices for sorted, disjoint intervals on one track, with `gapName` slices filling the gaps
 * between them up to the horizon, so every instant of the track has a state.
 */
function trackSlices(
  pid: number,
  rows: ArrayLike<number>,
  start: Float64Array,
  end: Float64Array,
  nameOf: (row: number) => string,
  gapName: string,
  horizon: number,
  cat: string,
): TraceEvent[] {
  const out: TraceEvent[] = [];
  let cursor = 0;
  const slice = (name: string, a: number, b: number) => {
    const ts = us(a);
    const dur = us(b) - ts;
    if (dur > 0) out.push({ name, ph: "X", pid, tid: 1, ts, dur, cat });
  };
  for (let k = 0; k < rows.length; k++) {
    const i = rows[k] as number;
    const a = start[i] as number;
    const b = Math.min(end[i] as number, horizon);
    if (a > cursor) slice(gapName, cursor, a);
    slice(nameOf(i), a, b);
    cursor = Math.max(cursor, b);
  }
  if (cursor < horizon) slice(gapName, cursor, horizon);
  return out;
}

function rowsWhere(n: number, keep: (i: number) => boolean): Int32Array {
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (keep(i)) out.push(i);
  return Int32Array.from(out);
}

export function clusterTrace(scenario: Scenario, trace: Trace): TraceFile {
  const horizon = derived(scenario).horizonSeconds;
  const R = scenario.cluster.replicas;
  const events: TraceEvent[] = [
    ...meta(SYNC_PID, "Synchronous job", "job state", 0),
    ...meta(FT_JOB_PID, "FT-HSDP job", "job state (global stalls)", 1),
  ];
  for (let r = 0; r < R; r++)
    events.push(...meta(replicaPid(r), `FT-HSDP replica ${r}`, "replica state", 2 + r));

  const { sync, ft, ftStalls, failures } = trace;
  events.push(
    ...trackSlices(
      SYNC_PID,
      rowsWhere(sync.start.length, () => true),
      sync.start,
      sync.end,
      (i) => SYNC_STATE_NAMES[sync.state[i] as number] ?? "unknown",
      "training",
      horizon,
      "synchronous",
    ),
    ...trackSlices(
      FT_JOB_PID,
      rowsWhere(ftStalls.start.length, () => true),
      ftStalls.start,
      ftStalls.end,
      () => "global stall",
      "training",
      horizon,
      "ftHsdp",
    ),
  );

  // Group the interval rows by replica once (they arrive sorted by start across all replicas).
  const byReplica: number[][] = Array.from({ length: R }, () => []);
  for (let i = 0; i < ft.replica.length; i++) byReplica[ft.replica[i] as number]?.push(i);
  byReplica.forEach((rows, r) => {
    events.push(
      ...trackSlices(
        replicaPid(r),
        rows,
        ft.start,
        ft.end,
        (i) => PHASE_NAMES[ft.phase[i] as number] ?? "unknown",
        "healthy",
        horizon,
        "ftHsdp",
      ),
    );
  });

  for (let i = 0; i < failures.time.length; i++) {
    const hang = failures.hang[i] === 1;
    const args = {
      failure: i,
      host: failures.host[i] as number,
      replica: failures.replica[i] as number,
      class: hang ? "hang" : "fail-stop",
      detect_s: failures.detectSeconds[i] as number,
      ft_stall_s: failures.ftStallSeconds[i] as number,
      sync_stall_s: failures.syncStallSeconds[i] as number,
      sync_lost_s: failures.syncLostSeconds[i] as number,
    };
    const name = hang ? "failure (hang)" : "failure (fail-stop)";
    const ts = us(failures.time[i] as number);
    events.push(
      { name, ph: "i", s: "t", pid: SYNC_PID, tid: 1, ts, cat: "failure", args },
      { name, ph: "i", s: "t", pid: replicaPid(args.replica), tid: 1, ts, cat: "failure", args },
    );
  }

  const counter = (pid: number, c: { t: Float64Array; useful: Float64Array }) => {
    for (let i = 0; i < c.t.length; i++) {
      const hours = (c.useful[i] as number) / 3600;
      events.push({
        name: "useful training",
        ph: "C",
        pid,
        tid: 0,
        ts: us(c.t[i] as number),
        args: { hours },
      });
    }
  };
  counter(SYNC_PID, trace.progress.synchronous);
  counter(FT_JOB_PID, trace.progress.ftHsdp);

  return {
    traceEvents: events,
    displayTimeUnit: "ms",
    metadata: { source: "FT-HSDP Explorer", scenario },
  };
}

export function clusterTraceJson(scenario: Scenario, trace: Trace): string {
  return JSON.stringify(clusterTrace(scenario, trace));
}
