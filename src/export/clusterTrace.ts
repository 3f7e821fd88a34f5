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
 *
 * Each job also has a second thread, its job track (SIMULATION.md §3): FT-HSDP's job restarts and
 * checkpoint writes, with the progress a job restart rolled back on a third thread (a rollback
 * spans writes, so it cannot share their thread without overlapping them); the synchronous job's
 * restarts, one per failure (every failure restarts it), named for the failure that started it.
 */
import { derived, type Scenario } from "../sim/scenario.ts";
import { FtJobState, FtPhase, SyncState, type Trace } from "../sim/types.ts";

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
/** Threads of a job's process: its state (tiles the horizon), its job track, its rollbacks. */
export const STATE_TID = 1;
export const JOB_TID = 2;
export const ROLLBACK_TID = 3;

export const PHASE_NAMES: Record<number, string> = {
  [FtPhase.detect]: "down: detect",
  [FtPhase.waitSpare]: "down: waiting for a spare host",
  [FtPhase.restart]: "down: restart",
  [FtPhase.catchUp]: "catching up",
  [FtPhase.rejoin]: "rejoining",
};

export const SYNC_STATE_NAMES: Record<number, string> = {
  [SyncState.recovering]: "recovering",
  [SyncState.checkpointing]: "checkpointing",
  [SyncState.rolledBack]: "rolled back (work lost)",
  [SyncState.waitSpare]: "recovering: waiting for spare hosts",
};

export const FT_JOB_NAMES: Record<number, string> = {
  [FtJobState.jobRestart]: "job restart",
  [FtJobState.checkpointing]: "checkpoint write",
  [FtJobState.rolledBack]: "rolled back (work lost)",
};

const SCOPES = ["host", "rack", "job"] as const;

const us = (seconds: number): number => Math.round(seconds * 1e6);

function meta(pid: number, processName: string, threadName: string, sortIndex: number): TraceEvent[] {
  return [
    { name: "process_name", ph: "M", pid, tid: 0, ts: 0, args: { name: processName } },
    { name: "process_sort_index", ph: "M", pid, tid: 0, ts: 0, args: { sort_index: sortIndex } },
    threadMeta(pid, STATE_TID, threadName),
  ];
}

function threadMeta(pid: number, tid: number, name: string): TraceEvent {
  return { name: "thread_name", ph: "M", pid, tid, ts: 0, args: { name } };
}

/** One slice per row on a thread that need not tile the horizon (a job track); clipped to it. */
function jobSlices(
  pid: number,
  tid: number,
  rows: readonly number[],
  start: Float64Array,
  end: Float64Array,
  nameOf: (row: number) => string,
  horizon: number,
  cat: string,
  argsOf?: (row: number) => Record<string, string | number>,
): TraceEvent[] {
  const out: TraceEvent[] = [];
  for (const i of rows) {
    const ts = us(start[i] as number);
    const dur = us(Math.min(end[i] as number, horizon)) - ts;
    if (dur <= 0) continue;
    const e: TraceEvent = { name: nameOf(i), ph: "X", pid, tid, ts, dur, cat };
    if (argsOf) e.args = argsOf(i);
    out.push(e);
  }
  return out.sort((a, b) => a.ts - b.ts);
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
    if (dur > 0) out.push({ name, ph: "X", pid, tid: STATE_TID, ts, dur, cat });
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
    threadMeta(SYNC_PID, JOB_TID, "job restarts"),
    ...meta(FT_JOB_PID, "FT-HSDP job", "job state (global stalls)", 1),
    threadMeta(FT_JOB_PID, JOB_TID, "job restarts · checkpoint writes"),
    threadMeta(FT_JOB_PID, ROLLBACK_TID, "rolled back (work lost)"),
  ];
  for (let r = 0; r < R; r++)
    events.push(...meta(replicaPid(r), `FT-HSDP replica ${r}`, "replica state", 2 + r));

  const { sync, ft, ftStalls, ftJob, failures } = trace;
  const causeName = (i: number) => scenario.failures.causes[failures.cause[i] as number]?.name;
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

  // Every failure restarts the synchronous job: its recovery piece, from the failure on.
  const syncRestarts = Array.from(failures.time, (_, i) => i);
  const syncEnd = Float64Array.from(failures.time, (t, i) => t + (failures.syncStallSeconds[i] as number));
  events.push(
    ...jobSlices(
      SYNC_PID,
      JOB_TID,
      syncRestarts,
      failures.time,
      syncEnd,
      (i) => `job restart #${i + 1}${causeName(i) ? ` (${causeName(i)})` : ""}`,
      horizon,
      "synchronous",
      (i) => ({ failure: i, lost_s: failures.syncLostSeconds[i] as number }),
    ),
  );
  const jobRows = (keep: (state: number) => boolean) =>
    Array.from(rowsWhere(ftJob.state.length, (i) => keep(ftJob.state[i] as number)));
  events.push(
    ...jobSlices(
      FT_JOB_PID,
      JOB_TID,
      jobRows((st) => st !== FtJobState.rolledBack),
      ftJob.start,
      ftJob.end,
      (i) => FT_JOB_NAMES[ftJob.state[i] as number] ?? "unknown",
      horizon,
      "ftHsdp",
    ),
    ...jobSlices(
      FT_JOB_PID,
      ROLLBACK_TID,
      jobRows((st) => st === FtJobState.rolledBack),
      ftJob.start,
      ftJob.end,
      (i) => FT_JOB_NAMES[ftJob.state[i] as number] ?? "unknown",
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
    const scope = SCOPES[failures.scope[i] as number] ?? "host";
    const args: Record<string, string | number> = {
      failure: i,
      scope,
      host: failures.host[i] as number,
      hosts: failures.hostCount[i] as number,
      replica: failures.replica[i] as number,
      replicas: failures.replicaCount[i] as number,
      class: hang ? "hang" : "fail-stop",
      detect_s: failures.detectSeconds[i] as number,
      ft_detect_s: failures.ftDetectSeconds[i] as number,
      ft_stall_s: failures.ftStallSeconds[i] as number,
      ft_lost_s: failures.ftLostSeconds[i] as number,
      sync_stall_s: failures.syncStallSeconds[i] as number,
      sync_lost_s: failures.syncLostSeconds[i] as number,
    };
    const cause = causeName(i);
    if (cause) args.cause = cause;
    const name = hang ? "failure (hang)" : "failure (fail-stop)";
    const ts = us(failures.time[i] as number);
    const instant = (pid: number, tid: number): TraceEvent => ({
      name,
      ph: "i",
      s: "t",
      pid,
      tid,
      ts,
      cat: "failure",
      args,
    });
    events.push(instant(SYNC_PID, STATE_TID));
    // A job-scope failure strikes no replica in particular: it is marked on the job track.
    if (scope === "job") events.push(instant(FT_JOB_PID, JOB_TID));
    const first = failures.replica[i] as number;
    for (let j = 0; j < (failures.replicaCount[i] as number) && first >= 0; j++)
      events.push(instant(replicaPid((first + j) % R), STATE_TID));
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
