/**
 * One run of the cluster model: draw the failures once, run every policy of the registry
 * (policies.ts) on them, and (when asked) keep the timelines. A pure function of (scenario, seed).
 */
import { closedForms } from "./closedForms.ts";
import { type FailureTrace, generateFailureTrace } from "./failureTrace.ts";
import { byPolicy, POLICIES, type Policy, type PolicyKey, type PolicyRecordings } from "./policies.ts";
import type { Scenario } from "./scenario.ts";
import type { PolicyMetrics, RunResult, Trace } from "./types.ts";

export interface RunOptions {
  /** Defaults to the scenario's own seed. */
  seed?: number;
  /** Keep the trace (timelines, failure log, progress curves); off for Monte Carlo. */
  record?: boolean;
}

const emptyPool = () => ({
  t: new Float64Array(0),
  available: new Int32Array(0),
  waiting: new Int32Array(0),
});

/** Runs one policy and files its metrics (and recording) under its key: generic, so the types line up. */
function runPolicy<K extends PolicyKey>(
  p: Policy<K>,
  s: Scenario,
  failures: FailureTrace,
  result: RunResult,
  recordings: Partial<PolicyRecordings> | null,
): void {
  const out = p.run(s, failures, recordings !== null);
  (result as Record<PolicyKey, PolicyMetrics>)[p.key] = out.metrics;
  if (recordings && out.recording) recordings[p.key] = out.recording;
}

/**
 * Every policy of the registry on a given failure trace: the engine's core, open to tests and the
 * independent reference that place failures by hand (failureTraceOf).
 */
export function runOnTrace(s: Scenario, failures: FailureTrace, record = false): RunResult {
  // Keys in the order of the contract: scenario, the policies in registry order, closedForm.
  const result = { scenario: s } as RunResult;
  const recordings: Partial<PolicyRecordings> | null = record ? {} : null;
  for (const p of POLICIES) runPolicy(p, s, failures, result, recordings);
  result.closedForm = closedForms(s);
  if (recordings) result.trace = traceOf(failures, recordings);
  return result;
}

/**
 * The recorded trace: the failure log, then each policy's progress and spare pool by key, and the
 * policy-specific tracks (sync states; FT-HSDP phases, stalls and job track) by name.
 */
function traceOf(failures: FailureTrace, rec: Partial<PolicyRecordings>): Trace | undefined {
  const sync = rec.synchronous;
  const ft = rec.ftHsdp;
  if (!sync || !ft) return undefined;
  const n = failures.count;
  const all = rec as PolicyRecordings;
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
      ftLostSeconds: ft.lostPerFailure,
      ftStallSeconds: ft.stallPerFailure,
      syncStallSeconds: sync.stallPerFailure,
      syncLostSeconds: sync.lostPerFailure,
    },
    ft: ft.intervals,
    ftStalls: ft.stalls,
    ftJob: ft.job,
    sync: sync.intervals,
    progress: byPolicy((p) => all[p.key].progress),
    spares: byPolicy((p) => all[p.key].spares ?? emptyPool()),
  };
}

export function runScenario(s: Scenario, opts: RunOptions = {}): RunResult {
  const seed = opts.seed ?? s.seed;
  return runOnTrace(s, generateFailureTrace(s, seed), opts.record ?? false);
}
