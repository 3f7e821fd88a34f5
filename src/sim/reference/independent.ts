/**
 * A second, deliberately plain reading of SIMULATION.md §1, written without looking at the
 * engine's policy code. Tests run it beside the engine on the same failure trace: where the two
 * disagree, one of them misreads the spec. Clarity over speed — it is never used by the app.
 */
import type { FailureTrace } from "../failureTrace.ts";
import { derived, type Scenario } from "../scenario.ts";

/** The per-run figures both readings produce (SIMULATION.md "Metrics (per policy)"). */
export interface ReferenceMetrics {
  ettr: number;
  usefulSeconds: number;
  failures: number;
  stallSeconds: number;
  lostWorkSeconds: number;
  checkpoints: number;
  degradedSeconds: number;
  /** FT-HSDP only: seconds with exactly k replicas in one of the four phases (sync: empty). */
  secondsWithKDown: number[];
}

interface Failure {
  time: number;
  replica: number;
  detect: number;
}

/** The trace's columns as rows, in time order. */
function failuresOf(f: FailureTrace): Failure[] {
  return Array.from({ length: f.count }, (_, i) => ({
    time: f.time[i]!,
    replica: f.replica[i]!,
    detect: f.detectSeconds[i]!,
  }));
}

/**
 * Synchronous training, walked state by state. The job trains, writes a checkpoint (blocking),
 * or recovers. `pending` is training not yet covered by a completed checkpoint: a failure loses it.
 */
export function referenceSynchronous(s: Scenario, f: FailureTrace): ReferenceMetrics {
  const { horizonSeconds: H } = derived(s);
  const interval = s.sync.checkpointMinutes * 60;
  const write = s.sync.checkpointWriteSeconds;
  const restart = s.sync.restartSeconds;
  // checkpointMinutes = 0: "a checkpoint at every step at no cost (no rollback)".
  const everyStep = interval === 0;

  let t = 0;
  let state: "train" | "write" | "recover" = "train";
  let stateEnd = 0; // end of the current write or recovery
  let sinceCheckpoint = 0; // training since the last checkpoint or restart
  let pending = 0;
  let trained = 0;
  let lost = 0;
  let stall = 0;
  let checkpoints = 0;
  const failures = failuresOf(f);
  let i = 0;

  // Events at the same instant: a write starting or ending goes before a failure, so a write of
  // 0 s that falls due as a failure strikes counts; events at the horizon itself still happen.
  for (;;) {
    const nextFailure = failures[i]?.time ?? Number.POSITIVE_INFINITY;
    let boundary: number;
    if (state === "train") {
      boundary = everyStep ? Number.POSITIVE_INFINITY : t + (interval - sinceCheckpoint);
    } else {
      boundary = stateEnd;
    }
    const next = Math.min(nextFailure, boundary, H);
    const dt = next - t;
    if (state === "train") {
      trained += dt;
      sinceCheckpoint += dt;
      if (!everyStep) pending += dt;
    } else if (state === "recover") {
      stall += dt;
    }
    t = next;
    if (boundary <= nextFailure && boundary <= H) {
      if (state === "train") {
        state = "write";
        stateEnd = t + write;
      } else if (state === "write") {
        checkpoints++;
        pending = 0;
        sinceCheckpoint = 0;
        state = "train";
      } else {
        state = "train";
        sinceCheckpoint = 0;
      }
    } else if (nextFailure < H) {
      // A failure: everything not yet checkpointed rolls back (a write in flight is lost too).
      lost += pending;
      pending = 0;
      sinceCheckpoint = 0;
      state = "recover";
      stateEnd = t + failures[i]!.detect + restart;
      i++;
    } else {
      break;
    }
  }
  const useful = trained - lost;
  return {
    ettr: useful / H,
    usefulSeconds: useful,
    failures: f.count,
    stallSeconds: stall,
    lostWorkSeconds: lost,
    checkpoints,
    degradedSeconds: 0,
    secondsWithKDown: [],
  };
}

/**
 * FT-HSDP: first each replica's phase intervals (a failure in the same replica cuts the running
 * sequence short and starts a new one), then a sweep over all interval ends, where the rate on
 * each elementary piece follows from how many replicas are down and whether any stalls globally.
 */
export function referenceFtHsdp(s: Scenario, f: FailureTrace): ReferenceMetrics {
  const { horizonSeconds: H } = derived(s);
  const R = s.cluster.replicas;
  const { reconfigureSeconds, replicaRestartSeconds, catchUpSeconds, rejoinSeconds, minReplicas } = s.ft;
  const blocking = s.ft.catchUp === "blocking";

  const byReplica = new Map<number, Failure[]>();
  for (const failure of failuresOf(f)) {
    const list = byReplica.get(failure.replica) ?? [];
    list.push(failure);
    byReplica.set(failure.replica, list);
  }

  // Per replica, the union of its phases is one interval per sequence; keep the "down" intervals
  // (any phase) and the "global" ones (the phases that stall everyone) separately.
  const down: { start: number; end: number }[] = [];
  const global: { start: number; end: number }[] = [];
  for (const seqs of byReplica.values()) {
    for (const [k, { time: start, detect }] of seqs.entries()) {
      const cut = seqs[k + 1]?.time ?? Number.POSITIVE_INFINITY;
      const phases = [
        { length: detect + reconfigureSeconds, global: true },
        { length: replicaRestartSeconds, global: false },
        { length: catchUpSeconds, global: blocking },
        { length: rejoinSeconds, global: true },
      ];
      let t = start;
      for (const p of phases) {
        const end = Math.min(t + p.length, cut);
        if (p.global && end > t) global.push({ start: t, end });
        t = end;
        if (t >= cut) break;
      }
      down.push({ start, end: t });
    }
  }

  // Sweep: +1/−1 at each interval's ends; all changes at one instant apply before the next piece.
  const events: { t: number; down: number; global: number }[] = [];
  for (const d of down) events.push({ t: d.start, down: 1, global: 0 }, { t: d.end, down: -1, global: 0 });
  for (const g of global) events.push({ t: g.start, down: 0, global: 1 }, { t: g.end, down: 0, global: -1 });
  events.sort((a, b) => a.t - b.t);

  let useful = 0;
  let stall = 0;
  let degraded = 0;
  const kDown = new Array<number>(R + 1).fill(0);
  let nDown = 0;
  let nGlobal = 0;
  let t = 0;
  let e = 0;
  while (t < H) {
    for (let ev = events[e]; ev !== undefined && ev.t <= t; ev = events[++e]) {
      nDown += ev.down;
      nGlobal += ev.global;
    }
    const next = Math.min(events[e]?.t ?? H, H);
    const dt = next - t;
    const healthy = R - nDown;
    kDown[nDown] = (kDown[nDown] ?? 0) + dt;
    if (nGlobal > 0 || healthy < minReplicas) {
      stall += dt;
    } else {
      useful += (healthy / R) * dt;
      if (nDown > 0) degraded += dt;
    }
    t = next;
  }
  return {
    ettr: useful / H,
    usefulSeconds: useful,
    failures: f.count,
    stallSeconds: stall,
    lostWorkSeconds: 0,
    checkpoints: 0,
    degradedSeconds: degraded,
    secondsWithKDown: kDown,
  };
}

/**
 * Failures drawn with a generator of its own (mulberry32), so Monte Carlo means can be compared
 * with the engine's without sharing its dice: this checks the arrival, host and hang draws too.
 */
export function referenceFailureTrace(s: Scenario, seed: number): FailureTrace {
  const { hosts, hostsPerReplica, lambdaPerSecond, horizonSeconds } = derived(s);
  let state = seed >>> 0;
  const uniform = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 15), z | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    return ((z ^ (z >>> 14)) >>> 0) / 2 ** 32;
  };
  const rows: { time: number; host: number; hang: boolean }[] = [];
  if (lambdaPerSecond > 0) {
    for (let k = 1; ; k++) {
      const time =
        s.failures.arrivals === "fixed"
          ? k / lambdaPerSecond
          : (rows.at(-1)?.time ?? 0) - Math.log(1 - uniform()) / lambdaPerSecond;
      if (time >= horizonSeconds) break;
      rows.push({
        time,
        host: Math.floor(uniform() * hosts),
        hang: uniform() < s.failures.hangFraction,
      });
    }
  }
  const trace: FailureTrace = {
    count: rows.length,
    time: Float64Array.from(rows, (r) => r.time),
    host: Int32Array.from(rows, (r) => r.host),
    replica: Int32Array.from(rows, (r) => Math.floor(r.host / hostsPerReplica)),
    hang: Uint8Array.from(rows, (r) => (r.hang ? 1 : 0)),
    detectSeconds: Float64Array.from(rows, (r) =>
      r.hang ? s.detection.hangSeconds : s.detection.failStopSeconds,
    ),
  };
  return trace;
}
