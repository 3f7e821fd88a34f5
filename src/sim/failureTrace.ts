/**
 * The failures of one run, drawn once: both policies consume the same trace, so their
 * difference is the policies', not the dice's (SIMULATION.md §1 "Failures").
 */
import { Rng } from "./rng.ts";
import { derived, type Scenario } from "./scenario.ts";

/** Failures in time order, strictly before the horizon; rows are the same index across arrays. */
export interface FailureTrace {
  count: number;
  time: Float64Array;
  host: Int32Array;
  /** floor(host / hostsPerReplica): the FT-HSDP replica the failed host belongs to. */
  replica: Int32Array;
  /** 1 = hang (caught by the watchdog), 0 = fail-stop. */
  hang: Uint8Array;
  /** hangSeconds for a hang, failStopSeconds for a fail-stop. */
  detectSeconds: Float64Array;
}

function allocate(capacity: number): FailureTrace {
  return {
    count: 0,
    time: new Float64Array(capacity),
    host: new Int32Array(capacity),
    replica: new Int32Array(capacity),
    hang: new Uint8Array(capacity),
    detectSeconds: new Float64Array(capacity),
  };
}

function grow(t: FailureTrace): FailureTrace {
  const bigger = allocate(t.time.length * 2);
  bigger.count = t.count;
  bigger.time.set(t.time);
  bigger.host.set(t.host);
  bigger.replica.set(t.replica);
  bigger.hang.set(t.hang);
  bigger.detectSeconds.set(t.detectSeconds);
  return bigger;
}

/**
 * Draw the failures of scenario s with the given seed. Per failure, in this order: the
 * inter-arrival time (Poisson only), the host, the hang coin. The coin is drawn even when
 * hangFraction is 0 or 1, so changing it flips labels without moving any failure.
 */
export function generateFailureTrace(s: Scenario, seed: number): FailureTrace {
  const { hosts, hostsPerReplica, lambdaPerSecond, mtbfSeconds, horizonSeconds, expectedFailures } =
    derived(s);
  const poisson = s.failures.arrivals === "poisson";
  // Mean + 8σ: growing is a rare fallback, not the normal path.
  let t = allocate(Math.ceil(expectedFailures + 8 * Math.sqrt(expectedFailures)) + 16);
  if (lambdaPerSecond <= 0) return t;
  const rng = new Rng(seed);
  const { hangFraction } = s.failures;
  const { failStopSeconds, hangSeconds } = s.detection;
  let now = 0;
  for (let k = 1; ; k++) {
    now = poisson ? now + rng.exponential(lambdaPerSecond) : k * mtbfSeconds;
    if (now >= horizonSeconds) break;
    if (t.count === t.time.length) t = grow(t);
    const i = t.count++;
    const host = rng.below(hosts);
    const hang = rng.uniform() < hangFraction;
    t.time[i] = now;
    t.host[i] = host;
    t.replica[i] = Math.floor(host / hostsPerReplica);
    t.hang[i] = hang ? 1 : 0;
    t.detectSeconds[i] = hang ? hangSeconds : failStopSeconds;
  }
  return t;
}

/** A hand-placed trace (tests, what-ifs): failures at the given times on the given hosts. */
export function failureTraceOf(
  s: Scenario,
  rows: readonly { time: number; host: number; hang?: boolean }[],
): FailureTrace {
  const { hostsPerReplica } = derived(s);
  const sorted = [...rows].sort((a, b) => a.time - b.time);
  const t = allocate(sorted.length);
  t.count = sorted.length;
  sorted.forEach((row, i) => {
    t.time[i] = row.time;
    t.host[i] = row.host;
    t.replica[i] = Math.floor(row.host / hostsPerReplica);
    t.hang[i] = row.hang ? 1 : 0;
    t.detectSeconds[i] = row.hang ? s.detection.hangSeconds : s.detection.failStopSeconds;
  });
  return t;
}
