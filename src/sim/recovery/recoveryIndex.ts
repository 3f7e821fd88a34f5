/**
 * The recovery waterfall's per-trace lookups (recoveryWaterfall.ts), in a module of their own: the
 * page's entry script primes them for each recorded run without loading the waterfall itself.
 */
import { type FtJobIntervals, FtJobState, type PolicyKey, type Trace } from "../types.ts";

/**
 * Per-trace lookups, built once: each replica-level policy's job restarts sorted by start, and the
 * run's horizon. The worker builds them beside the run it records and sends them with the trace
 * (primeRecoveryIndex), so the page's first failure log render does not pay for them; built on
 * first use otherwise.
 */
export interface RecoveryIndex {
  horizon: number;
  /** By policy key, for each recording of kind "replicas". */
  jobRestarts: Partial<Record<PolicyKey, JobRestarts>>;
}

/** A replica-level policy's job restarts, in start order. */
export interface JobRestarts {
  jobStart: Float64Array;
  jobEnd: Float64Array;
}

const indexes = new WeakMap<Trace, RecoveryIndex>();

function jobRestartsOf(j: FtJobIntervals): JobRestarts {
  // The job track is written as each piece ends (a rollback is written after its span), so it is
  // not in start order: sort the restarts once. Typed arrays and no comparator while they are
  // already in order (the usual case): a run with 150,000 job restarts indexes in a few ms, where
  // a comparator sort of boxed rows took the page's main thread ~100 ms.
  let n = 0;
  for (let k = 0; k < j.state.length; k++) if (j.state[k] === FtJobState.jobRestart) n++;
  let rows = new Int32Array(n);
  let sorted = true;
  for (let k = 0, m = 0; k < j.state.length; k++) {
    if (j.state[k] !== FtJobState.jobRestart) continue;
    if (m > 0 && (j.start[k] as number) < (j.start[rows[m - 1] as number] as number)) sorted = false;
    rows[m++] = k;
  }
  if (!sorted)
    rows = Int32Array.from([...rows].sort((a, b) => (j.start[a] as number) - (j.start[b] as number)));
  const jobStart = new Float64Array(n);
  const jobEnd = new Float64Array(n);
  for (let m = 0; m < n; m++) {
    jobStart[m] = j.start[rows[m] as number] as number;
    jobEnd[m] = j.end[rows[m] as number] as number;
  }
  return { jobStart, jobEnd };
}

/** The recovery lookups of a trace (what recoveryWaterfall reads besides the trace itself). */
export function buildRecoveryIndex(trace: Trace): RecoveryIndex {
  const jobRestarts: Partial<Record<PolicyKey, JobRestarts>> = {};
  // Every policy's progress curve ends at the horizon; the longest is read in case one is empty.
  let horizon = 0;
  for (const key of trace.policies) {
    const rec = trace.recordings[key];
    if (!rec) continue;
    const curve = rec.progress.t;
    if (curve.length > 0) horizon = Math.max(horizon, curve[curve.length - 1] as number);
    if (rec.kind === "replicas") jobRestarts[key] = jobRestartsOf(rec.job);
  }
  return { horizon, jobRestarts };
}

/** Use `index` (buildRecoveryIndex of this trace, built elsewhere: the worker) for this trace. */
export function primeRecoveryIndex(trace: Trace, index: RecoveryIndex): void {
  indexes.set(trace, index);
}

/** The trace's lookups: primed, or built on first use and kept. */
export function recoveryIndexOf(trace: Trace): RecoveryIndex {
  const cached = indexes.get(trace);
  if (cached) return cached;
  const index = buildRecoveryIndex(trace);
  indexes.set(trace, index);
  return index;
}
