/**
 * FT-HSDP (SIMULATION.md §1 "FT-HSDP"), event-driven: the only events are failures and the ends
 * of recovery phases, so the cost grows with failures, never with steps, GPUs or replicas.
 *
 * Between two events the number of replicas down and in a global-stall phase is constant, hence
 * so is the training rate (healthy/R, or 0 when stalled or below minReplicas): useful time is a
 * sum of rate × duration. Each recovering replica has exactly one entry in an indexed heap,
 * keyed on the end of its current phase; a failure during its recovery re-keys that entry.
 */
import { CurveBuilder, f64, i32, u8 } from "./columns.ts";
import type { FailureTrace } from "./failureTrace.ts";
import { IndexedMinHeap } from "./indexedHeap.ts";
import { derived, type Scenario } from "./scenario.ts";
import { type FtIntervals, FtPhase, type PolicyMetrics, type ProgressCurve, type Spans } from "./types.ts";

export interface FtRecording {
  intervals: FtIntervals;
  stalls: Spans;
  progress: ProgressCurve;
  /** Global stall attributed to each failure: stalled time not already covered by an earlier failure's stall. */
  stallPerFailure: Float64Array;
}

const HEALTHY = 0;
const LAST_PHASE = FtPhase.rejoin;

/**
 * Per-replica state, kept between runs so a Monte Carlo does not allocate R-sized arrays for
 * every seed. Only `phase` needs resetting; the rest is read only while a replica recovers.
 */
class ReplicaState {
  phase: Uint8Array;
  phaseEnd: Float64Array;
  queue: IndexedMinHeap;

  constructor(readonly capacity: number) {
    this.phase = new Uint8Array(capacity);
    this.phaseEnd = new Float64Array(capacity);
    this.queue = new IndexedMinHeap(capacity, this.phaseEnd);
  }
}

let shared: ReplicaState | null = null;

function replicaState(R: number): ReplicaState {
  if (shared === null || shared.capacity < R) shared = new ReplicaState(R);
  shared.phase.fill(HEALTHY, 0, R);
  shared.queue.clear();
  return shared;
}

/**
 * What only a recorded run keeps: the phase intervals, the stall spans, the progress curve and
 * which failure each stalled second belongs to (the earliest failure among the replicas then
 * causing the stall — in a stall phase, or down while below minReplicas).
 */
class FtRecorder {
  readonly replica = i32();
  readonly phase = u8();
  readonly start = f64();
  readonly end = f64();
  readonly stallStart = f64();
  readonly stallEnd = f64();
  readonly curve = new CurveBuilder();
  readonly row: Int32Array;
  /** The failure index each recovering replica is recovering from, as a heap key. */
  readonly failureOf: Float64Array;
  readonly stalling: IndexedMinHeap;
  readonly down: IndexedMinHeap;
  readonly stallPerFailure: Float64Array;

  constructor(R: number, failures: number) {
    this.row = new Int32Array(R);
    this.failureOf = new Float64Array(R);
    this.stalling = new IndexedMinHeap(R, this.failureOf);
    this.down = new IndexedMinHeap(R, this.failureOf);
    this.stallPerFailure = new Float64Array(failures);
  }

  enter(r: number, phase: number, start: number, end: number, stalls: boolean): void {
    this.row[r] = this.replica.push(r);
    this.phase.push(phase);
    this.start.push(start);
    this.end.push(end);
    if (stalls) this.stalling.upsert(r);
    else this.stalling.remove(r);
  }

  /** The replica's current phase ends at t (early when a new failure cancels it). */
  leave(r: number, t: number): void {
    this.end.set(this.row[r]!, t);
  }

  /** Stall spans are merged: one that starts where the last ended continues it. */
  stallTransition(stalled: boolean, t: number): void {
    if (!stalled) this.stallEnd.push(t);
    else if (this.stallEnd.length > 0 && this.stallEnd.last() === t) this.stallEnd.length--;
    else this.stallStart.push(t);
  }

  attributeStall(dt: number, stallPhases: number): void {
    const owners = stallPhases > 0 ? this.stalling : this.down;
    if (owners.size > 0) this.stallPerFailure[this.failureOf[owners.top()]!]! += dt;
  }

  /**
   * The intervals, clipped to the horizon, without the empty ones: a phase entered at the very
   * instant a new failure cancels it.
   */
  build(H: number): FtRecording {
    const replica = this.replica.toArray();
    const phase = this.phase.toArray();
    const start = this.start.toArray();
    const end = this.end.toArray();
    let kept = 0;
    for (let i = 0; i < end.length; i++) {
      const e = Math.min(end[i]!, H);
      if (e <= start[i]!) continue;
      replica[kept] = replica[i]!;
      phase[kept] = phase[i]!;
      start[kept] = start[i]!;
      end[kept] = e;
      kept++;
    }
    return {
      intervals: {
        replica: replica.slice(0, kept),
        phase: phase.slice(0, kept),
        start: start.slice(0, kept),
        end: end.slice(0, kept),
      },
      stalls: { start: this.stallStart.toArray(), end: this.stallEnd.toArray() },
      progress: this.curve.build(),
      stallPerFailure: this.stallPerFailure,
    };
  }
}

export function runFtHsdp(
  s: Scenario,
  trace: FailureTrace,
  record: boolean,
): { metrics: PolicyMetrics; recording?: FtRecording } {
  const { horizonSeconds: H } = derived(s);
  const R = s.cluster.replicas;
  const { minReplicas, reconfigureSeconds, replicaRestartSeconds, catchUpSeconds, rejoinSeconds } = s.ft;
  const blocking = s.ft.catchUp === "blocking";
  // Indexed by phase; the detect phase's length depends on the failure and is set per failure.
  // Index LAST_PHASE + 1 is "healthy again": a zero-length step out of the last phase.
  const duration = Float64Array.of(0, 0, replicaRestartSeconds, catchUpSeconds, rejoinSeconds, 0);
  const stallsIn = Uint8Array.of(0, 1, 0, blocking ? 1 : 0, 1, 0);

  const { phase, phaseEnd, queue } = replicaState(R);
  const rec = record ? new FtRecorder(R, trace.count) : null;
  const kDown = new Float64Array(R + 1);

  let down = 0;
  let stallPhases = 0;
  let healthyTime = 0; // ∫ healthy dt over time that is not stalled
  let stall = 0;
  let degraded = 0;
  let healthySum = 0; // ∫ healthy dt

  const stalled = () => stallPhases > 0 || R - down < minReplicas;

  /** Enter phase p at `start`, ending at `end`; zero-length phases are passed through. */
  const enter = (r: number, p: number, start: number, end: number) => {
    while (end <= start && p < LAST_PHASE) {
      p++;
      end = start + duration[p]!;
    }
    if (end <= start) {
      phase[r] = HEALTHY;
      down--;
      queue.remove(r);
      if (rec) {
        rec.stalling.remove(r);
        rec.down.remove(r);
      }
      return;
    }
    phase[r] = p;
    phaseEnd[r] = end;
    queue.upsert(r);
    if (stallsIn[p]) stallPhases++;
    rec?.enter(r, p, start, end, stallsIn[p] === 1);
  };

  /** The current phase of r ends (or is cancelled) at t. */
  const leave = (r: number, t: number) => {
    if (stallsIn[phase[r]!]) stallPhases--;
    rec?.leave(r, t);
  };

  const n = trace.count;
  const times = trace.time;
  let t = 0;
  let i = 0;
  let wasStalled = false;
  rec?.curve.point(0, 0);
  for (;;) {
    const nextFailure = i < n ? times[i]! : H;
    const nextPhaseEnd = queue.size > 0 ? phaseEnd[queue.top()]! : H;
    const next = Math.min(nextFailure, nextPhaseEnd, H);
    const dt = next - t;
    if (dt > 0) {
      const healthy = R - down;
      kDown[down]! += dt;
      healthySum += healthy * dt;
      if (wasStalled) {
        stall += dt;
        rec?.attributeStall(dt, stallPhases);
      } else {
        healthyTime += healthy * dt;
        if (down > 0) degraded += dt;
      }
      t = next;
    }
    if (next >= H) break;
    const rateBefore = wasStalled ? 0 : R - down;

    if (nextPhaseEnd <= nextFailure) {
      const r = queue.top();
      const p = phase[r]!;
      leave(r, next);
      enter(r, p + 1, next, next + duration[p + 1]!);
    } else {
      const r = trace.replica[i]!;
      if (phase[r] === HEALTHY) down++;
      else leave(r, next);
      if (rec) {
        rec.failureOf[r] = i;
        rec.stalling.remove(r);
        rec.down.upsert(r);
      }
      enter(r, FtPhase.detect, next, next + trace.detectSeconds[i]! + reconfigureSeconds);
      i++;
    }

    const isStalled = stalled();
    if (rec) {
      if (isStalled !== wasStalled) rec.stallTransition(isStalled, t);
      if ((isStalled ? 0 : R - down) !== rateBefore) rec.curve.point(t, healthyTime / R);
    }
    wasStalled = isStalled;
  }

  const useful = healthyTime / R;
  const metrics: PolicyMetrics = {
    ettr: useful / H,
    usefulSeconds: useful,
    wallSeconds: H,
    failures: n,
    stallSeconds: stall,
    stallSecondsPerFailure: n > 0 ? stall / n : 0,
    lostWorkSeconds: 0,
    checkpoints: 0,
    checkpointSeconds: 0,
    degradedSeconds: degraded,
    meanHealthyReplicas: healthySum / H,
    secondsWithKDown: kDown,
    jobRestarts: 0,
    spareWaitSeconds: 0,
    longestSpareWaitSeconds: 0,
    poolEmptySeconds: 0,
    causeCount: new Float64Array(s.failures.causes.length),
    causeStallSeconds: new Float64Array(s.failures.causes.length),
  };
  if (!rec) return { metrics };
  if (wasStalled) rec.stallEnd.push(H);
  rec.curve.point(H, useful);
  return { metrics, recording: rec.build(H) };
}
