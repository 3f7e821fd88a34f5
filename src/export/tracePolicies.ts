/**
 * The selected policies as the cluster export writes them: each with its recording, label, CSV
 * prefix and process ids, in display order (a policy is written by its recording's kind, never by
 * its key), and the useful-training counter every job carries.
 */
import { policyOf } from "../sim/policies/index.ts";
import type { PolicyKey, PolicyRecording, ProgressCurve, Trace } from "../sim/types.ts";
import { jobPid, replicaPid, type TraceEvent, type TraceWindow, us } from "./traceEvents.ts";

export interface PolicyPart<R extends PolicyRecording = PolicyRecording> {
  key: PolicyKey;
  label: string;
  prefix: string;
  pid: number;
  rec: R;
  replicaPid: (r: number) => number;
}

/** Each selected policy with its recording, label and process ids, in display order. */
export function policyParts(trace: Trace, R: number): PolicyPart[] {
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

/** How many of the parts are replica-level (each takes R replica processes). */
export const replicaLevelCount = (parts: readonly PolicyPart[]): number =>
  parts.filter((q) => q.rec.kind === "replicas").length;

/** A job's useful training so far, as a counter of hours, inside the window. */
export function* usefulCounter(
  pid: number,
  c: ProgressCurve,
  [from, to]: TraceWindow,
): Generator<TraceEvent> {
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
