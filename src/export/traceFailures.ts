/**
 * The failures in the cluster export: an instant ("i") event per failure on every thread it
 * struck (a whole-job policy's state thread; a replica-level policy's struck replicas, or its job
 * track for a job-scope failure), with what each policy made of it in its args under its CSV
 * prefix (`sync_stall_s`, `ft_hsdp_lost_s`). An eviction of a slow host (§6) is a failure found at
 * once, named as one.
 */
import type { Scenario } from "../sim/scenario/index.ts";
import type { Trace } from "../sim/types.ts";
import { JOB_TID, STATE_TID, type TraceEvent, type TraceWindow, us } from "./traceEvents.ts";
import type { PolicyPart } from "./tracePolicies.ts";

const SCOPES = ["host", "rack", "job"] as const;

export function* failureEvents(
  scenario: Scenario,
  trace: Trace,
  parts: readonly PolicyPart[],
  [from, to]: TraceWindow,
): Generator<TraceEvent> {
  const R = scenario.cluster.replicas;
  const { failures } = trace;
  for (let i = 0; i < failures.time.length; i++) {
    const time = failures.time[i] as number;
    if (time < from || time > to) continue;
    const hang = failures.hang[i] === 1;
    const evicted = failures.evicted[i] === 1;
    const scope = SCOPES[failures.scope[i] as number] ?? "host";
    const args: Record<string, string | number> = {
      failure: i,
      scope,
      host: failures.host[i] as number,
      hosts: failures.hostCount[i] as number,
      replica: failures.replica[i] as number,
      replicas: failures.replicaCount[i] as number,
      class: evicted ? "eviction" : hang ? "hang" : "fail-stop",
      detect_s: failures.detectSeconds[i] as number,
      ft_detect_s: failures.ftDetectSeconds[i] as number,
    };
    for (const q of parts) {
      args[`${q.prefix}_stall_s`] = q.rec.stallPerFailure[i] as number;
      args[`${q.prefix}_lost_s`] = q.rec.lostPerFailure[i] as number;
    }
    const cause = scenario.failures.causes[failures.cause[i] as number]?.name;
    if (cause) args.cause = cause;
    const name = evicted ? "eviction (slow host)" : hang ? "failure (hang)" : "failure (fail-stop)";
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
}
