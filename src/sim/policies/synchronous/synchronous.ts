/**
 * Synchronous training (docs/model.md §1 "Synchronous training", §3 "Synchronous job, version 2"),
 * event-driven over failures. A recovery is detect → waitSpare (until every replacement host
 * requested by then is served: one time from the spare pool's pass) → restart.
 *
 * The job alternates training segments and recoveries. Within a segment, checkpoints follow a
 * fixed cycle (C of training, then a blocking write of W), so where a failure lands in that
 * cycle, what it rolls back and how many checkpoints completed are arithmetic: nothing loops
 * over steps or checkpoints unless the run records its timeline.
 */
import { CurveBuilder, f64, u8 } from "../../columns.ts";
import type { FailureTrace } from "../../failures/failureTrace.ts";
import { runSparePool, servedBy } from "../../failures/spares.ts";
import { derived } from "../../scenario/derived.ts";
import type { Scenario } from "../../scenario/index.ts";
import { SlowOut } from "../../slow/slowClock.ts";
import { wholeJobClock } from "../../slow/slowEpisodes.ts";
import { Badput, type PolicyMetrics, SyncState, type WholeJobRecording } from "../../types.ts";
import { assembleMetrics, badputSeconds } from "../policyMetrics.ts";

export const MAX_RECORDED_WRITES = 20_000;

/** Slots of runSynchronous's running totals (`v`). */
const USEFUL = 0;
const STALL = 1;
const CHECKPOINTS = 2;
const CHECKPOINT_SECONDS = 3;
/** Where the training that a failure would roll back began (the last completed checkpoint). */
const PENDING_FROM = 4;
/** Where the current piece of recovery began. */
const PIECE_START = 5;
/** The piece's wait for spares: [WAIT_FROM, WAIT_TO), empty with an unlimited pool. */
const WAIT_FROM = 6;
const WAIT_TO = 7;
const SPARE_WAIT = 8;
const LONGEST_WAIT = 9;
const SLOTS = 10;
/**
 * Those totals, kept from run to run (reset at each): a fresh Float64Array of 80 bytes is an
 * off-heap buffer in V8 (past 64 bytes), a malloc and a free per run. Runs never overlap.
 */
const slots = new Float64Array(SLOTS);

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

  /**
   * A training segment from a to b: k whole cycles (each write recorded while recordEachWrite),
   * then p into the next, `useful` before it. Out of train() so that train() stays small enough
   * for the optimiser to inline it (a call left out of line boxes its double arguments).
   */
  segment(
    a: number,
    b: number,
    failed: boolean,
    k: number,
    p: number,
    useful: number,
    pendingFrom: number,
    C: number,
    cycle: number,
    recordEachWrite: boolean,
  ): void {
    const pending = Math.min(p, C);
    for (let j = 0; j < (recordEachWrite ? k : 0); j++) {
      const writeEnd = a + (j + 1) * cycle;
      const writeStart = Math.min(a + j * cycle + C, writeEnd);
      this.curve.point(writeStart, useful + (j + 1) * C);
      this.interval(SyncState.checkpointing, writeStart, writeEnd);
      this.curve.point(writeEnd, useful + (j + 1) * C);
    }
    if (!recordEachWrite) this.curve.point(pendingFrom, useful + k * C);
    // Computed, not summed, so rounding can never put it after b.
    const pendingEnd = p <= C ? b : pendingFrom + C;
    this.curve.point(pendingEnd, useful + k * C + pending);
    if (failed) this.interval(SyncState.rolledBack, pendingFrom, pendingEnd);
    // A write cut short by a failure or the horizon.
    this.interval(SyncState.checkpointing, pendingEnd, b);
    this.curve.point(b, useful + k * C + pending);
  }

  /** A piece of recovery of failure `owner` from `start` to `at`: detection, the wait for spares (if any), the restart. */
  piece(owner: number, start: number, waitFrom: number, waited: number, at: number): void {
    this.stallPerFailure[owner] = at - start;
    if (waited > 0) {
      this.interval(SyncState.recovering, start, waitFrom);
      this.interval(SyncState.waitSpare, waitFrom, waitFrom + waited);
      this.interval(SyncState.recovering, waitFrom + waited, at);
    } else this.interval(SyncState.recovering, start, at);
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

/** A recording run's view of a slow walk: progress points from `useful`, writes as checkpointing. */
export function slowRecorder(
  rec: { curve: CurveBuilder; interval(state: number, start: number, end: number): void },
  useful: number,
) {
  return {
    point: (t: number, p: number) => rec.curve.point(t, useful + p),
    write: (a: number, b: number) => rec.interval(SyncState.checkpointing, a, b),
  };
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
  const clock = wholeJobClock(trace, H);

  // The doubles that train() and endPiece() update live in `v`, not in closure variables: V8
  // boxes a double written to a variable a closure captures, a heap allocation per write (about
  // 140 KB of garbage a default run). Slots: see USEFUL...LONGEST_WAIT above.
  const v = slots.fill(0);
  let lost = 0;

  /**
   * Train from `a` (right after a restart, or 0) until `b`, a failure or the horizon. Returns
   * the training since the last completed checkpoint, which a failure at `b` rolls back. A
   * checkpoint that completes at `b` itself counts as completed.
   */
  const train = (a: number, b: number, failed: boolean): number => {
    // §6: a segment some host is slow in walks the slow clock; every other keeps the arithmetic.
    if (clock?.overlaps(a, b)) return trainSlow(a, b, failed);
    rec?.curve.point(a, v[USEFUL]!);
    if (C <= 0) {
      v[USEFUL]! += b - a;
      rec?.curve.point(b, v[USEFUL]!);
      return 0;
    }
    return trainCycles(a, b, failed);
  };
  /** train() with checkpoints: apart, so that train() stays small enough to be inlined. */
  const trainCycles = (a: number, b: number, failed: boolean): number => {
    const len = b - a;
    let k = Math.floor(len / cycle);
    let p = len - k * cycle;
    // len / cycle can round up to an integer k when len is a hair below k cycles.
    if (p < 0) {
      k--;
      p += cycle;
    }
    const pending = Math.min(p, C);
    v[PENDING_FROM] = a + k * cycle;
    if (rec) rec.segment(a, b, failed, k, p, v[USEFUL]!, v[PENDING_FROM]!, C, cycle, recordEachWrite);
    v[CHECKPOINTS]! += k;
    v[CHECKPOINT_SECONDS]! += k * W + Math.max(0, p - C);
    v[USEFUL]! += k * C + pending;
    return pending;
  };

  /** §6: train() when a host is slow in [a, b): the clock's walk, the same totals. */
  const trainSlow = (a: number, b: number, failed: boolean): number => {
    const o = clock!.walk(a, b, C, W, rec ? slowRecorder(rec, v[USEFUL]!) : null);
    const pending = o[SlowOut.pending]!;
    v[PENDING_FROM] = o[SlowOut.pendingFrom]!;
    if (rec) {
      if (failed) rec.interval(SyncState.rolledBack, v[PENDING_FROM]!, o[SlowOut.pendingEnd]!);
      rec.interval(SyncState.checkpointing, o[SlowOut.pendingEnd]!, b);
    }
    v[CHECKPOINTS]! += o[SlowOut.completed]!;
    v[CHECKPOINT_SECONDS]! += o[SlowOut.writeSeconds]!;
    v[USEFUL]! += o[SlowOut.progress]!;
    badput[Badput.slow]! += o[SlowOut.slowLoss]!;
    return pending;
  };

  let segmentStart = 0;
  let recovering = false;
  let recoveryEnd = 0;
  /** The failure the current piece of recovery belongs to (the piece began at PIECE_START). */
  let pieceOwner = -1;

  const causeStall = new Float64Array(s.failures.causes.length);
  const badput = badputSeconds();
  const endPiece = (at: number) => {
    v[STALL]! += at - v[PIECE_START]!;
    const c = trace.cause[pieceOwner]!;
    if (c >= 0) causeStall[c]! += at - v[PIECE_START]!;
    const waited = v[WAIT_TO]! > v[WAIT_FROM]! ? Math.max(0, Math.min(at, v[WAIT_TO]!) - v[WAIT_FROM]!) : 0;
    // Where the piece's time went: detection until the wait begins, then the wait, then the restart.
    const detecting = Math.min(at, v[WAIT_FROM]!) - v[PIECE_START]!;
    badput[Badput.detection]! += detecting;
    badput[Badput.spareWait]! += waited;
    badput[Badput.recovery]! += at - v[PIECE_START]! - detecting - waited;
    v[SPARE_WAIT]! += waited;
    if (waited > v[LONGEST_WAIT]!) v[LONGEST_WAIT] = waited;
    if (rec) rec.piece(pieceOwner, v[PIECE_START]!, v[WAIT_FROM]!, waited, at);
  };

  for (let i = 0; i < n; i++) {
    const f = times[i]!;
    if (recovering) {
      // The recovery ended before this failure, or (hit while recovering) starts again, with
      // this failure's detection delay. One call site: each inlined site spends the optimiser's
      // budget, and a call left out of line boxes its double argument.
      const ended = f >= recoveryEnd;
      endPiece(ended ? recoveryEnd : f);
      if (ended) {
        recovering = false;
        segmentStart = recoveryEnd;
      }
    }
    if (!recovering) {
      const rolledBack = train(segmentStart, f, true);
      if (rolledBack > 0) {
        v[USEFUL]! -= rolledBack;
        lost += rolledBack;
        if (rec) {
          rec.lostPerFailure[i] = rolledBack;
          rec.curve.point(f, v[USEFUL]!);
        }
      }
      recovering = true;
    }
    v[PIECE_START] = f;
    pieceOwner = i;
    // The restart waits for the replacements requested by the end of detection (and no later).
    const detectEnd = f + trace.detectSeconds[i]!;
    const served = pool ? servedBy(pool, detectEnd) : detectEnd;
    v[WAIT_FROM] = detectEnd;
    v[WAIT_TO] = Math.max(served, detectEnd);
    recoveryEnd = v[WAIT_TO]! + restart;
  }

  // At the horizon, pending progress counts: nothing rolls it back.
  if (!recovering) train(segmentStart, H, false);
  else if (recoveryEnd < H) {
    endPiece(recoveryEnd);
    train(recoveryEnd, H, false);
  } else {
    endPiece(H);
    rec?.curve.point(H, v[USEFUL]!);
  }

  badput[Badput.checkpointWrite] = v[CHECKPOINT_SECONDS]!;
  badput[Badput.rolledBack] = lost;
  const metrics: PolicyMetrics = assembleMetrics(trace, {
    wallSeconds: H,
    usefulSeconds: v[USEFUL]!,
    stallSeconds: v[STALL]!,
    lostWorkSeconds: lost,
    checkpoints: v[CHECKPOINTS]!,
    checkpointSeconds: v[CHECKPOINT_SECONDS]!,
    degradedSeconds: 0,
    healthyReplicaSeconds: R * (H - v[STALL]!),
    secondsWithKDown: new Float64Array(0),
    jobRestarts: n,
    spareWaitSeconds: v[SPARE_WAIT]!,
    longestSpareWaitSeconds: v[LONGEST_WAIT]!,
    pool,
    causeStallSeconds: causeStall,
    badputSeconds: badput,
  });
  if (!rec) return { metrics };
  const recording = rec.build();
  if (pool?.history) recording.spares = pool.history;
  return { metrics, recording };
}
