/**
 * A recorded trace's recordings by key, typed by their kind: for the views and tests that read one
 * policy's recording (a policy's own lanes, a story chapter about one policy). Views that show
 * every selected policy iterate trace.policies instead.
 */
import type { PolicyKey, ReplicaRecording, Trace, WholeJobRecording } from "./types.ts";

/** The whole-job recording of policy `key`, or null when the trace holds none. */
export function wholeJobRecording(trace: Trace, key: PolicyKey): WholeJobRecording | null {
  const r = trace.recordings[key];
  return r?.kind === "wholeJob" ? r : null;
}

/** The replica-level recording of policy `key`, or null when the trace holds none. */
export function replicaRecording(trace: Trace, key: PolicyKey): ReplicaRecording | null {
  const r = trace.recordings[key];
  return r?.kind === "replicas" ? r : null;
}
