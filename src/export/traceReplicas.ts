/**
 * A replica-level policy's processes in the cluster export (FT-HSDP: recordings of kind
 * "replicas"): its job process (global stalls; a job track of job restarts and checkpoint writes,
 * with the progress a job restart rolled back on a third thread, as a rollback spans writes and
 * cannot share their thread without overlapping them), and one process per replica.
 *
 * A replica's own slices are its recovery phases and "healthy" between them; whether a healthy
 * replica trains or waits is the job's state, shown once on the job track rather than copied onto
 * every replica (that would grow as replicas × failures).
 */
import { FtJobState, FtPhase, type ReplicaRecording } from "../sim/types.ts";
import {
  JOB_TID,
  jobSlices,
  meta,
  ROLLBACK_TID,
  rowsWhere,
  type TraceEvent,
  type TraceWindow,
  threadMeta,
  trackSlices,
} from "./traceEvents.ts";
import type { PolicyPart } from "./tracePolicies.ts";

// Every phase named (satisfies): a new phase that is not drawn or named fails to compile.
export const PHASE_NAMES: Record<number, string> = {
  [FtPhase.detect]: "down: detect",
  [FtPhase.waitSpare]: "down: waiting for a spare host",
  [FtPhase.restart]: "down: restart",
  [FtPhase.catchUp]: "catching up",
  [FtPhase.rejoin]: "rejoining",
  [FtPhase.detectQuiet]: "down: detect (outside the quorum)",
} satisfies Record<FtPhase, string>;

export const FT_JOB_NAMES: Record<number, string> = {
  [FtJobState.jobRestart]: "job restart",
  [FtJobState.checkpointing]: "checkpoint write",
  [FtJobState.rolledBack]: "rolled back (work lost)",
};

type ReplicaPart = PolicyPart<ReplicaRecording>;

/** Its job process's and threads' names. */
export function* replicaJobMeta(q: ReplicaPart, sort: number): Generator<TraceEvent> {
  yield* meta(q.pid, `${q.label} job`, "job state (global stalls)", sort);
  yield threadMeta(q.pid, JOB_TID, "job restarts · checkpoint writes");
  yield threadMeta(q.pid, ROLLBACK_TID, "rolled back (work lost)");
}

/** Its replicas' processes' names; `sort` gives each its place. */
export function* replicaMetas(q: ReplicaPart, R: number, sort: () => number): Generator<TraceEvent> {
  for (let r = 0; r < R; r++)
    yield* meta(q.replicaPid(r), `${q.label} replica ${r}`, "replica state", sort());
}

/** Its job's state: the global stalls, "training" between them. */
export function replicaJobState(q: ReplicaPart, w: TraceWindow): Generator<TraceEvent> {
  const { stalls } = q.rec;
  return trackSlices(q.pid, null, stalls.start, stalls.end, () => "global stall", "training", w, q.key);
}

/** Its job track: restarts and checkpoint writes, then the rolled-back spans on their own thread. */
export function* replicaJobTrack(q: ReplicaPart, w: TraceWindow): Generator<TraceEvent> {
  const job = q.rec.job;
  const jobRows = (keep: (state: number) => boolean) =>
    rowsWhere(job.state.length, (i) => keep(job.state[i] as number));
  const name = (i: number) => FT_JOB_NAMES[job.state[i] as number] ?? "unknown";
  yield* jobSlices(
    q.pid,
    JOB_TID,
    jobRows((st) => st !== FtJobState.rolledBack),
    job.start,
    job.end,
    name,
    w,
    q.key,
  );
  yield* jobSlices(
    q.pid,
    ROLLBACK_TID,
    jobRows((st) => st === FtJobState.rolledBack),
    job.start,
    job.end,
    name,
    w,
    q.key,
  );
}

/** Each replica's phases, "healthy" between them. */
export function* replicaPhases(q: ReplicaPart, R: number, w: TraceWindow): Generator<TraceEvent> {
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
