/**
 * A whole-job policy's process in the cluster export (synchronous, in-memory checkpoints, hot
 * spares: recordings of kind "wholeJob"): its state thread (stops, checkpoint writes, rolled-back
 * work, training between them) and its job track, one restart per failure (every failure restarts
 * it), named for the failure that started it.
 */
import type { Scenario } from "../sim/scenario/index.ts";
import { SyncState, type Trace, type WholeJobRecording } from "../sim/types.ts";
import {
  JOB_TID,
  jobSlices,
  meta,
  type TraceEvent,
  type TraceWindow,
  threadMeta,
  trackSlices,
} from "./traceEvents.ts";
import type { PolicyPart } from "./tracePolicies.ts";

export const SYNC_STATE_NAMES: Record<number, string> = {
  [SyncState.recovering]: "recovering",
  [SyncState.checkpointing]: "checkpointing",
  [SyncState.rolledBack]: "rolled back (work lost)",
  [SyncState.waitSpare]: "recovering: waiting for spare hosts",
  [SyncState.migrating]: "migrating to standbys",
};

type WholeJobPart = PolicyPart<WholeJobRecording>;

/** Its process and threads' names. */
export function* wholeJobMeta(q: WholeJobPart, sort: number): Generator<TraceEvent> {
  yield* meta(q.pid, `${q.label} job`, "job state", sort);
  yield threadMeta(q.pid, JOB_TID, "job restarts");
}

/** Its state, tiling the window ("training" between its intervals). */
export function wholeJobState(q: WholeJobPart, w: TraceWindow): Generator<TraceEvent> {
  const iv = q.rec.intervals;
  return trackSlices(
    q.pid,
    null,
    iv.start,
    iv.end,
    (i) => SYNC_STATE_NAMES[iv.state[i] as number] ?? "unknown",
    "training",
    w,
    q.key,
  );
}

/** Every failure restarts the job: its recovery piece, from the failure on. */
export function wholeJobRestarts(
  q: WholeJobPart,
  scenario: Scenario,
  trace: Trace,
  w: TraceWindow,
): Generator<TraceEvent> {
  const { failures } = trace;
  const rec = q.rec;
  const causeName = (i: number) => scenario.failures.causes[failures.cause[i] as number]?.name;
  const end = Float64Array.from(failures.time, (t, i) => t + (rec.stallPerFailure[i] as number));
  return jobSlices(
    q.pid,
    JOB_TID,
    Int32Array.from(failures.time, (_, i) => i),
    failures.time,
    end,
    (i) => `job restart #${i + 1}${causeName(i) ? ` (${causeName(i)})` : ""}`,
    w,
    q.key,
    (i) => ({ failure: i, lost_s: rec.lostPerFailure[i] as number }),
  );
}
