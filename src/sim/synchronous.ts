/**
 * Synchronous training (SIMULATION.md §1 "Synchronous training", §3 "Synchronous job, version 2"),
 * event-driven over failures. A recovery is detect → waitSpare (until every replacement host
 * requested by then is served: one time from the spare pool's pass) → restart.
 *
 * The job alternates training segments and recoveries. Within a segment, checkpoints follow a
 * fixed cycle (C of training, then a blocking write of W), so where a failure lands in that
 * cycle, what it rolls back and how many checkpoints completed are arithmetic: nothing loops
 * over steps or checkpoints unless the run records its timeline.
 */
import { CurveBuilder, f64, u8 } from "./columns.ts";
import { derived } from "./derived.ts";
import type { FailureTrace } from "./failureTrace.ts";
import { assembleMetrics, badputSeconds } from "./policyMetrics.ts";
import type { Scenario } from "./scenario.ts";
import { runSparePool, servedBy } from "./spares.ts";
import {
  Badput,
  type PolicyMetrics,
  type ProgressCurve,
  type SparePoolHistory,
  type SyncIntervals,
  SyncState,
  type WholeJobRecording,
} from "./types.ts";

export const MAX_RECORDED_WRITES = 20_000;

/**
 * The synchronous job's recording: a whole-job lane (types.ts's WholeJobRecording); its stall per
 * failure is the recovery time from it until the next failure or the recovery's end.
 */
export type SyncRecording = WholeJobRecording;

export class SyncRecorder {
  readonly state = u8();
  readonly start = f64();
  readonly end = f64();
  readonly curve = new CurveBuilder();

  constructor(
    readonly stallPerFailure: Float64Array,
    readonly lostPerFailure: Float64Array,
  ) {}

  interval(state: SyncState, start: number, end: number): void {
    if (end <= start) return;
    this.state.push(state);
    this.start.push(start);
    this.end.push(end);
  }

  build(): SyncRecording {
    return {
      kind: "wholeJob",
      intervals: { state: this.state.toArray(), start: this.start.toArray(), end: this.end.toArray() },
      progress: this.curve.build(),
      stallPerFailure: this.stallPerFailure,
      lostPerFailure: this.lostPerFailure,
    };
  }
}

export function runSynchronous(
  s: Scenario,
  trace: FailureTrace,
  record: boolean,
): { metrics: PolicyMetrics; recording?: SyncRecording } {
  const { horizonSeconds: H } = derived(s);
  const R = s.cluster.replicas;
  const restart = s.sync.restartSeconds;
  // checkpointMinutes = 0: a checkpoint at every step at no cost, so nothing is ever rolled back.
  const C = s.sync.checkpointMinutes * 60;
  const W = C > 0 ? s.sync.checkpointWriteSeconds : 0;
  const cycle = C + W;
  const n = trace.count;
  const times = trace.time;
  const rec = record ? new SyncRecorder(new Float64Array(n), new Float64Array(n)) : null;
  const pool = runSparePool(s, trace, trace.detectSeconds, record);
  // A timeline of a million checkpoint writes helps nobody and could exhaust a tab's memory:
  // past this many, the writes of a segment are left out of the recording, and its progress is
  // drawn at the average rate up to its last completed checkpoint. The metrics are unaffected.
  const recordEachWrite = C > 0 && H / cycle <= MAX_RECORDED_WRITES;

  let useful = 0;
  let lost = 0;
  let stall = 0;
  let checkpoints = 0;
  let checkpointSeconds = 0;

  /** Where the training that a failure would roll back began (the last completed checkpoint). */
  let pendingFrom = 0;

  /**
   * Train from `a` (right after a restart, or 0) until `b`, a failure or the horizon. Returns
   * the training since the last completed checkpoint, which a failure at `b` rolls back. A
   * checkpoint that completes at `b` itself counts as completed.
   */
  const train = (a: number, b: number, failed: boolean): number => {
    rec?.curve.point(a, useful);
    const len = b - a;
    if (C <= 0) {
      useful += len;
      rec?.curve.point(b, useful);
      return 0;
    }
    let k = Math.floor(len / cycle);
    let p = len - k * cycle;
    // len / cycle can round up to an integer k when len is a hair below k cycles.
    if (p < 0) {
      k--;
      p += cycle;
    }
    const pending = Math.min(p, C);
    pendingFrom = a + k * cycle;
    if (rec) {
      for (let j = 0; j < (recordEachWrite ? k : 0); j++) {
        const writeEnd = a + (j + 1) * cycle;
        const writeStart = Math.min(a + j * cycle + C, writeEnd);
        rec.curve.point(writeStart, useful + (j + 1) * C);
        rec.interval(SyncState.checkpointing, writeStart, writeEnd);
        rec.curve.point(writeEnd, useful + (j + 1) * C);
      }
      if (!recordEachWrite) rec.curve.point(pendingFrom, useful + k * C);
      // Computed, not summed, so rounding can never put it after b.
      const pendingEnd = p <= C ? b : pendingFrom + C;
      rec.curve.point(pendingEnd, useful + k * C + pending);
      if (failed) rec.interval(SyncState.rolledBack, pendingFrom, pendingEnd);
      // A write cut short by a failure or the horizon.
      rec.interval(SyncState.checkpointing, pendingEnd, b);
      rec.curve.point(b, useful + k * C + pending);
    }
    checkpoints += k;
    checkpointSeconds += k * W + Math.max(0, p - C);
    useful += k * C + pending;
    return pending;
  };

  let segmentStart = 0;
  let recovering = false;
  let recoveryEnd = 0;
  /** Where the current piece of recovery began, and the failure it belongs to. */
  let pieceStart = 0;
  let pieceOwner = -1;
  /** The piece's wait for spares: [waitFrom, waitTo), empty with an unlimited pool. */
  let waitFrom = 0;
  let waitTo = 0;
  let spareWait = 0;
  let longestWait = 0;

  const causeStall = new Float64Array(s.failures.causes.length);
  const badput = badputSeconds();
  const endPiece = (at: number) => {
    stall += at - pieceStart;
    const c = trace.cause[pieceOwner]!;
    if (c >= 0) causeStall[c]! += at - pieceStart;
    const waited = waitTo > waitFrom ? Math.max(0, Math.min(at, waitTo) - waitFrom) : 0;
    // Where the piece's time went: detection until waitFrom, then the wait, then the restart.
    const detecting = Math.min(at, waitFrom) - pieceStart;
    badput[Badput.detection]! += detecting;
    badput[Badput.spareWait]! += waited;
    badput[Badput.recovery]! += at - pieceStart - detecting - waited;
    spareWait += waited;
    if (waited > longestWait) longestWait = waited;
    if (rec) {
      rec.stallPerFailure[pieceOwner] = at - pieceStart;
      if (waited > 0) {
        rec.interval(SyncState.recovering, pieceStart, waitFrom);
        rec.interval(SyncState.waitSpare, waitFrom, waitFrom + waited);
        rec.interval(SyncState.recovering, waitFrom + waited, at);
      } else rec.interval(SyncState.recovering, pieceStart, at);
    }
  };

  for (let i = 0; i < n; i++) {
    const f = times[i]!;
    if (recovering && f >= recoveryEnd) {
      endPiece(recoveryEnd);
      recovering = false;
      segmentStart = recoveryEnd;
    }
    if (recovering) {
      // Hit while recovering: the recovery starts again, with this failure's detection delay.
      endPiece(f);
    } else {
      const rolledBack = train(segmentStart, f, true);
      if (rolledBack > 0) {
        useful -= rolledBack;
        lost += rolledBack;
        if (rec) {
          rec.lostPerFailure[i] = rolledBack;
          rec.curve.point(f, useful);
        }
      }
      recovering = true;
    }
    pieceStart = f;
    pieceOwner = i;
    // The restart waits for the replacements requested by the end of detection (and no later).
    const detectEnd = f + trace.detectSeconds[i]!;
    const served = pool ? servedBy(pool, detectEnd) : detectEnd;
    waitFrom = detectEnd;
    waitTo = served > detectEnd ? served : detectEnd;
    recoveryEnd = waitTo + restart;
  }

  // At the horizon, pending progress counts: nothing rolls it back.
  if (!recovering) train(segmentStart, H, false);
  else if (recoveryEnd < H) {
    endPiece(recoveryEnd);
    train(recoveryEnd, H, false);
  } else {
    endPiece(H);
    rec?.curve.point(H, useful);
  }

  badput[Badput.checkpointWrite] = checkpointSeconds;
  badput[Badput.rolledBack] = lost;
  const metrics: PolicyMetrics = assembleMetrics(trace, {
    wallSeconds: H,
    usefulSeconds: useful,
    stallSeconds: stall,
    lostWorkSeconds: lost,
    checkpoints,
    checkpointSeconds,
    degradedSeconds: 0,
    healthyReplicaSeconds: R * (H - stall),
    secondsWithKDown: new Float64Array(0),
    jobRestarts: n,
    spareWaitSeconds: spareWait,
    longestSpareWaitSeconds: longestWait,
    pool,
    causeStallSeconds: causeStall,
    badputSeconds: badput,
  });
  if (!rec) return { metrics };
  const recording = rec.build();
  if (pool?.history) recording.spares = pool.history;
  return { metrics, recording };
}
