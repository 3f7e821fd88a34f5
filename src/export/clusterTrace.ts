/**
 * The cluster timeline as Chrome / Perfetto Trace Event JSON (open it at ui.perfetto.dev): for
 * each selected policy, in display order, one process for its job as a whole and, for a
 * replica-level policy (FT-HSDP), one per replica. Each policy is written by its recording's kind
 * (types.ts's PolicyRecording) under its own label, never by key. States are complete ("X") slices, failures instant ("i") events,
 * useful training so far a counter ("C") on each job; names come from process_name / thread_name
 * metadata. Times are µs from the start of the run.
 *
 * A replica's own slices are its recovery phases and "healthy" between them; whether a healthy
 * replica trains or waits is the job's state, shown once on the FT-HSDP job track rather than
 * copied onto every replica (that would grow as replicas × failures).
 *
 * Each job also has a second thread, its job track (docs/model.md §3): a replica-level policy's job
 * restarts and checkpoint writes, with the progress a job restart rolled back on a third thread (a
 * rollback spans writes, so it cannot share their thread without overlapping them); a whole-job
 * policy's restarts, one per failure (every failure restarts it), named for the failure that
 * started it.
 *
 * A year-long run has ~29,000 failures and a few hundred thousand events: the events come from a
 * generator (no array is ever spread into a call, which overflowed the stack), can be limited to a
 * time window, and `clusterTraceBlob` turns them into a file in slices of a few milliseconds, so the
 * page stays responsive and can say the file's size before it is saved.
 */
import { policyOf } from "../sim/policies.ts";
import { derived, type Scenario } from "../sim/scenario.ts";
import {
  FtJobState,
  FtPhase,
  type PolicyKey,
  type PolicyRecording,
  type ReplicaRecording,
  SyncState,
  type Trace,
  type WholeJobRecording,
} from "../sim/types.ts";

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

// Every phase named (satisfies): a new phase that is not drawn or named fails to compile.
export const PHASE_NAMES: Record<number, string> = {
  [FtPhase.detect]: "down: detect",
  [FtPhase.waitSpare]: "down: waiting for a spare host",
  [FtPhase.restart]: "down: restart",
  [FtPhase.catchUp]: "catching up",
  [FtPhase.rejoin]: "rejoining",
  [FtPhase.detectQuiet]: "down: detect (outside the quorum)",
} satisfies Record<FtPhase, string>;

export const SYNC_STATE_NAMES: Record<number, string> = {
  [SyncState.recovering]: "recovering",
  [SyncState.checkpointing]: "checkpointing",
  [SyncState.rolledBack]: "rolled back (work lost)",
  [SyncState.waitSpare]: "recovering: waiting for spare hosts",
  [SyncState.migrating]: "migrating to standbys",
};

export const FT_JOB_NAMES: Record<number, string> = {
  [FtJobState.jobRestart]: "job restart",
  [FtJobState.checkpointing]: "checkpoint write",
  [FtJobState.rolledBack]: "rolled back (work lost)",
};

const SCOPES = ["host", "rack", "job"] as const;

const us = (seconds: number): number => Math.round(seconds * 1e6);

function* meta(
  pid: number,
  processName: string,
  threadName: string,
  sortIndex: number,
): Generator<TraceEvent> {
  yield { name: "process_name", ph: "M", pid, tid: 0, ts: 0, args: { name: processName } };
  yield { name: "process_sort_index", ph: "M", pid, tid: 0, ts: 0, args: { sort_index: sortIndex } };
  yield threadMeta(pid, STATE_TID, threadName);
}

function threadMeta(pid: number, tid: number, name: string): TraceEvent {
  return { name: "thread_name", ph: "M", pid, tid, ts: 0, args: { name } };
}

/** One slice per row on a thread that need not tile the window (a job track); clipped to it. */
function* jobSlices(
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
function* trackSlices(
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

/** The trace's events in file order; `window` limits them to a part of the run (default: all of it). */
export function* clusterTraceEvents(
  scenario: Scenario,
  trace: Trace,
  window?: TraceWindow | null,
): Generator<TraceEvent> {
  const horizon = derived(scenario).horizonSeconds;
  const w: TraceWindow = window ? [Math.max(0, window[0]), Math.min(horizon, window[1])] : [0, horizon];
  const [from, to] = w;
  const R = scenario.cluster.replicas;
  const { failures } = trace;
  const causeName = (i: number) => scenario.failures.causes[failures.cause[i] as number]?.name;

  // Each selected policy's processes: its job, then (replica-level) its replicas, right after it.
  const parts = policyParts(trace, R);
  let sort = 0;
  for (const q of parts) {
    if (q.rec.kind === "wholeJob") {
      yield* meta(q.pid, `${q.label} job`, "job state", sort++);
      yield threadMeta(q.pid, JOB_TID, "job restarts");
    } else {
      yield* meta(q.pid, `${q.label} job`, "job state (global stalls)", sort++);
      yield threadMeta(q.pid, JOB_TID, "job restarts · checkpoint writes");
      yield threadMeta(q.pid, ROLLBACK_TID, "rolled back (work lost)");
    }
  }
  for (const q of parts)
    if (q.rec.kind === "replicas")
      for (let r = 0; r < R; r++)
        yield* meta(q.replicaPid(r), `${q.label} replica ${r}`, "replica state", sort++);

  // Each job's state: a whole-job policy's stops, a replica-level policy's global stalls.
  for (const q of parts) {
    if (q.rec.kind === "wholeJob") {
      const iv = q.rec.intervals;
      yield* trackSlices(
        q.pid,
        null,
        iv.start,
        iv.end,
        (i) => SYNC_STATE_NAMES[iv.state[i] as number] ?? "unknown",
        "training",
        w,
        q.key,
      );
    } else {
      const { stalls } = q.rec;
      yield* trackSlices(q.pid, null, stalls.start, stalls.end, () => "global stall", "training", w, q.key);
    }
  }

  // The job tracks.
  for (const q of parts) {
    if (q.rec.kind === "wholeJob") yield* wholeJobRestarts(q.pid, q.key, q.rec);
    else yield* replicaJobTrack(q.pid, q.key, q.rec);
  }

  // The replicas' phases.
  for (const q of parts) {
    if (q.rec.kind !== "replicas") continue;
    const ft = q.rec.intervals;
    // Group the interval rows by replica once (they arrive sorted by start across all replicas).
    const byReplica: number[][] = Array.from({ length: R }, () => []);
    for (let i = 0; i < ft.replica.length; i++) byReplica[ft.replica[i] as number]?.push(i);
    for (let r = 0; r < R; r++)
      yield* trackSlices(
        q.replicaPid(r),
        byReplica[r] as number[],
        ft.start,
        ft.end,
        (i) => PHASE_NAMES[ft.phase[i] as number] ?? "unknown",
        "healthy",
        w,
        q.key,
      );
  }

  for (let i = 0; i < failures.time.length; i++) {
    const time = failures.time[i] as number;
    if (time < from || time > to) continue;
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
    };
    // What each policy made of it, under its CSV prefix (`sync_stall_s`, `ft_hsdp_lost_s`).
    for (const q of parts) {
      args[`${q.prefix}_stall_s`] = q.rec.stallPerFailure[i] as number;
      args[`${q.prefix}_lost_s`] = q.rec.lostPerFailure[i] as number;
    }
    const cause = causeName(i);
    if (cause) args.cause = cause;
    const name = hang ? "failure (hang)" : "failure (fail-stop)";
    const ts = us(time);
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
    for (const q of parts) {
      if (q.rec.kind === "wholeJob") {
        yield instant(q.pid, STATE_TID);
        continue;
      }
      // A job-scope failure strikes no replica in particular: it is marked on the job track.
      if (scope === "job") yield instant(q.pid, JOB_TID);
      const first = failures.replica[i] as number;
      for (let j = 0; j < (failures.replicaCount[i] as number) && first >= 0; j++)
        yield instant(q.replicaPid((first + j) % R), STATE_TID);
    }
  }

  function* counter(pid: number, c: { t: Float64Array; useful: Float64Array }): Generator<TraceEvent> {
    for (let i = 0; i < c.t.length; i++) {
      const t = c.t[i] as number;
      if (t < from || t > to) continue;
      yield {
        name: "useful training",
        ph: "C",
        pid,
        tid: 0,
        ts: us(t),
        args: { hours: (c.useful[i] as number) / 3600 },
      };
    }
  }
  for (const q of parts) yield* counter(q.pid, q.rec.progress);

  // Every failure restarts a whole-job policy's job: its recovery piece, from the failure on.
  function* wholeJobRestarts(pid: number, key: PolicyKey, rec: WholeJobRecording): Generator<TraceEvent> {
    const end = Float64Array.from(failures.time, (t, i) => t + (rec.stallPerFailure[i] as number));
    yield* jobSlices(
      pid,
      JOB_TID,
      Int32Array.from(failures.time, (_, i) => i),
      failures.time,
      end,
      (i) => `job restart #${i + 1}${causeName(i) ? ` (${causeName(i)})` : ""}`,
      w,
      key,
      (i) => ({ failure: i, lost_s: rec.lostPerFailure[i] as number }),
    );
  }

  function* replicaJobTrack(pid: number, key: PolicyKey, rec: ReplicaRecording): Generator<TraceEvent> {
    const job = rec.job;
    const jobRows = (keep: (state: number) => boolean) =>
      rowsWhere(job.state.length, (i) => keep(job.state[i] as number));
    const name = (i: number) => FT_JOB_NAMES[job.state[i] as number] ?? "unknown";
    yield* jobSlices(
      pid,
      JOB_TID,
      jobRows((st) => st !== FtJobState.rolledBack),
      job.start,
      job.end,
      name,
      w,
      key,
    );
    yield* jobSlices(
      pid,
      ROLLBACK_TID,
      jobRows((st) => st === FtJobState.rolledBack),
      job.start,
      job.end,
      name,
      w,
      key,
    );
  }
}

interface PolicyPart {
  key: PolicyKey;
  label: string;
  prefix: string;
  pid: number;
  rec: PolicyRecording;
  replicaPid: (r: number) => number;
}

/** Each selected policy with its recording, label and process ids, in display order. */
function policyParts(trace: Trace, R: number): PolicyPart[] {
  const out: PolicyPart[] = [];
  let m = 0;
  trace.policies.forEach((key, k) => {
    const rec = trace.recordings[key];
    if (!rec) return;
    const p = policyOf(key);
    const group = rec.kind === "replicas" ? m++ : 0;
    out.push({
      key,
      label: p.label,
      prefix: p.csvPrefix,
      pid: jobPid(k),
      rec,
      replicaPid: (r) => replicaPid(r, group, R),
    });
  });
  return out;
}

function rowsWhere(n: number, keep: (i: number) => boolean): Int32Array {
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (keep(i)) out.push(i);
  return Int32Array.from(out);
}

function fileMetadata(scenario: Scenario, window?: TraceWindow | null): Record<string, unknown> {
  return window
    ? { source: "FT-HSDP Explorer", scenario, window: { fromSeconds: window[0], toSeconds: window[1] } }
    : { source: "FT-HSDP Explorer", scenario };
}

export function clusterTrace(scenario: Scenario, trace: Trace, window?: TraceWindow | null): TraceFile {
  return {
    traceEvents: Array.from(clusterTraceEvents(scenario, trace, window)),
    displayTimeUnit: "ms",
    metadata: fileMetadata(scenario, window),
  };
}

/**
 * The file as text pieces, events in batches of `batch`: what JSON.stringify(clusterTrace(…))
 * writes, without one string or one array of the whole file.
 */
export function* clusterTraceJsonParts(
  scenario: Scenario,
  trace: Trace,
  window?: TraceWindow | null,
  batch = 2000,
): Generator<{ text: string; events: number }> {
  yield { text: '{"traceEvents":[', events: 0 };
  let pending: string[] = [];
  let first = true;
  const flush = () => {
    const text = (first ? "" : ",") + pending.join(",");
    first = false;
    const part = { text, events: pending.length };
    pending = [];
    return part;
  };
  for (const e of clusterTraceEvents(scenario, trace, window)) {
    pending.push(JSON.stringify(e));
    if (pending.length >= batch) yield flush();
  }
  if (pending.length > 0) yield flush();
  yield {
    text: `],"displayTimeUnit":"ms","metadata":${JSON.stringify(fileMetadata(scenario, window))}}`,
    events: 0,
  };
}

export function clusterTraceJson(scenario: Scenario, trace: Trace, window?: TraceWindow | null): string {
  let out = "";
  for (const p of clusterTraceJsonParts(scenario, trace, window)) out += p.text;
  return out;
}

/** What a sliced build made: the file, its size in bytes and its number of events. */
export interface BuiltTrace {
  blob: Blob;
  bytes: number;
  events: number;
}

/**
 * The file built a slice at a time: after each batch that took `sliceMs`, it waits for the event
 * loop (`pause`), so no task runs long however long the run; `isCancelled` stops it between slices
 * (a new window chosen, the panel closed) and then it resolves to null.
 */
/** Characters of text made into one Blob (~1 MB: a few ms to copy). */
const BLOB_CHARS = 1 << 20;

export async function clusterTraceBlob(
  scenario: Scenario,
  trace: Trace,
  window: TraceWindow | null,
  opts: {
    sliceMs?: number;
    pause?: () => Promise<void>;
    isCancelled?: () => boolean;
    onProgress?: (events: number) => void;
  } = {},
): Promise<BuiltTrace | null> {
  const sliceMs = opts.sliceMs ?? 30;
  const pause = opts.pause ?? (() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
  // Text becomes a Blob every BLOB_CHARS: the final Blob only references them, so no step copies
  // the whole file (tens of MB for a year) in one task. Making a Blob copies (and encodes) its
  // text, so it happens inside the slice's time, not after it: a slice's text made into one Blob
  // at its end was 50–100 ms of CPU on top of its 30 ms of building.
  const blobs: Blob[] = [];
  let parts: string[] = [];
  let chars = 0;
  const toBlob = () => {
    if (parts.length > 0) blobs.push(new Blob(parts));
    parts = [];
    chars = 0;
  };
  let events = 0;
  let sliceStart = performance.now();
  for (const part of clusterTraceJsonParts(scenario, trace, window, 500)) {
    parts.push(part.text);
    chars += part.text.length;
    events += part.events;
    if (chars >= BLOB_CHARS) toBlob();
    if (performance.now() - sliceStart >= sliceMs) {
      toBlob();
      opts.onProgress?.(events);
      await pause();
      if (opts.isCancelled?.()) return null;
      sliceStart = performance.now();
    }
  }
  toBlob();
  const blob = new Blob(blobs, { type: "application/json" });
  return { blob, bytes: blob.size, events };
}
