/**
 * One run of the cluster model: draw the failures once, run every policy of the registry
 * (policies.ts) on them, and (when asked) keep the timelines. A pure function of (scenario, seed).
 */

import { type FailureTrace, generateFailureTrace } from "./failures/failureTrace.ts";
import { type Policy, selectedPolicies } from "./policies/index.ts";
import { closedFormsOf } from "./policies/policyForms.ts";
import type { PolicyKey } from "./policies/policyKeys.ts";
import type { Scenario } from "./scenario/index.ts";
import { drawSlowEpisodes, withEvictions } from "./slow/slowEpisodes.ts";
import type { PolicyMetrics, PolicyRecording, RunResult, Trace } from "./types.ts";

export interface RunOptions {
  /** Defaults to the scenario's own seed. */
  seed?: number;
  /** Keep the trace (timelines, failure log, progress curves); off for Monte Carlo. */
  record?: boolean;
}

type Recordings = Partial<Record<PolicyKey, PolicyRecording>>;

/** Runs one policy and files its metrics (and recording) under its key. */
function runPolicy(
  p: Policy,
  s: Scenario,
  failures: FailureTrace,
  result: RunResult,
  recordings: Recordings | null,
): void {
  const out = p.run(s, failures, recordings !== null);
  (result as Record<PolicyKey, PolicyMetrics>)[p.key] = out.metrics;
  if (recordings && out.recording) recordings[p.key] = out.recording;
}

/**
 * The scenario's selected policies on a given failure trace: the engine's core, open to tests
 * and the independent reference that place failures by hand (failureTraceOf).
 */
export function runOnTrace(s: Scenario, failures: FailureTrace, record = false): RunResult {
  // Keys in the order of the contract: scenario, the selected policies in display order, closedForm.
  const result = { scenario: s } as RunResult;
  const recordings: Recordings | null = record ? {} : null;
  const policies = selectedPolicies(s);
  for (const p of policies) runPolicy(p, s, failures, result, recordings);
  result.closedForm = closedFormsOf(s);
  if (recordings) result.trace = traceOf(failures, recordings, policies);
  return result;
}

/**
 * The recorded trace: the failure log (the trace every policy met) and each selected policy's
 * recording by key, in display order. Nothing here knows a policy: the views draw a recording by
 * its kind.
 */
function traceOf(failures: FailureTrace, rec: Recordings, policies: readonly Policy[]): Trace {
  const n = failures.count;
  return {
    failures: {
      time: failures.time.slice(0, n),
      host: failures.host.slice(0, n),
      replica: failures.replica.slice(0, n),
      hang: failures.hang.slice(0, n),
      detectSeconds: failures.detectSeconds.slice(0, n),
      cause: failures.cause.slice(0, n),
      scope: failures.scope.slice(0, n),
      hostCount: failures.hostCount.slice(0, n),
      replicaCount: failures.replicaCount.slice(0, n),
      ftDetectSeconds: failures.ftDetectSeconds.slice(0, n),
      evicted: failures.evicted.slice(0, n),
    },
    policies: policies.map((p) => p.key),
    recordings: rec,
    // §6: the episodes every policy met, drawn by the timeline, the failure log and the Perfetto export; a scenario without them keeps its old trace.
    ...(failures.slow ? { slow: failures.slow } : {}),
  };
}

export function runScenario(s: Scenario, opts: RunOptions = {}): RunResult {
  const seed = opts.seed ?? s.seed;
  const record = opts.record ?? false;
  // An unrecorded result keeps nothing of the trace, so its columns (the episodes' too) are reused by the next run.
  const failures = generateFailureTrace(s, seed, !record);
  // §6: slow episodes come from a stream of their own; none (perHostDay 0) leaves the trace as it was.
  const slow = drawSlowEpisodes(s, seed, !record);
  return runOnTrace(s, slow ? withEvictions(s, failures, slow) : failures, record);
}

/**
 * Every buffer of a recorded trace (or of anything sent with it), once each: what a worker
 * transfers instead of copying. It walks the trace, so a policy's recording is transferred whatever its shape, and a buffer that
 * two views share (a policy's stall column is also the failure log's) is listed once.
 */
export function traceBuffers(trace: object): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  const walk = (v: unknown) => {
    if (ArrayBuffer.isView(v)) out.add(v.buffer as ArrayBuffer);
    else if (v !== null && typeof v === "object") for (const x of Object.values(v)) walk(x);
  };
  walk(trace);
  return [...out];
}
