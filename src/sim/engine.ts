/**
 * One run of the cluster model: draw the failures once, run both policies on them, and (when
 * asked) keep the timelines. A pure function of (scenario, seed).
 */
import { closedForms } from "./closedForms.ts";
import { type FailureTrace, generateFailureTrace } from "./failureTrace.ts";
import { runFtHsdp } from "./ftHsdp.ts";
import type { Scenario } from "./scenario.ts";
import { runSynchronous } from "./synchronous.ts";
import type { RunResult } from "./types.ts";

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

/**
 * Both policies on a given failure trace: the engine's core, open to tests and the independent
 * reference that place failures by hand (failureTraceOf).
 */
export function runOnTrace(s: Scenario, failures: FailureTrace, record = false): RunResult {
  const sync = runSynchronous(s, failures, record);
  const ft = runFtHsdp(s, failures, record);
  const result: RunResult = {
    scenario: s,
    synchronous: sync.metrics,
    ftHsdp: ft.metrics,
    closedForm: closedForms(s),
  };
  if (sync.recording && ft.recording) {
    const n = failures.count;
    result.trace = {
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
        ftLostSeconds: ft.recording.lostPerFailure,
        ftStallSeconds: ft.recording.stallPerFailure,
        syncStallSeconds: sync.recording.stallPerFailure,
        syncLostSeconds: sync.recording.lostPerFailure,
      },
      ft: ft.recording.intervals,
      ftStalls: ft.recording.stalls,
      ftJob: ft.recording.job,
      sync: sync.recording.intervals,
      progress: { synchronous: sync.recording.progress, ftHsdp: ft.recording.progress },
      spares: {
        synchronous: sync.recording.spares ?? emptyPool(),
        ftHsdp: ft.recording.spares ?? emptyPool(),
      },
    };
  }
  return result;
}

export function runScenario(s: Scenario, opts: RunOptions = {}): RunResult {
  const seed = opts.seed ?? s.seed;
  return runOnTrace(s, generateFailureTrace(s, seed), opts.record ?? false);
}
