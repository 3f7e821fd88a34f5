/**
 * What the policies that stop the whole job at every failure share (docs/model.md §4's
 * `inMemory` and `hotSpare`; the synchronous policy is the same mechanics, kept in its own file
 * so version 1 and 2 keep their bits): training in fixed checkpoint cycles between recoveries,
 * and recoveries made of pieces (one per failure that starts or restarts one) whose time splits
 * into detection, a wait for spares and the restart itself.
 *
 * Like synchronous.ts, nothing loops over steps or checkpoints: where a failure lands in the
 * cycle (C of training, then a blocking write of W) is arithmetic. Nothing here allocates per
 * failure; the recorder (only when a run records) grows its columns.
 */
import { CurveBuilder, f64, u8 } from "../columns.ts";
import type { FailureTrace } from "../failures/failureTrace.ts";
import type { SpareRequests } from "../failures/spares.ts";
import { type SlowClock, SlowOut } from "../slow/slowClock.ts";
import { Badput, type PolicyMetrics, SyncState } from "../types.ts";
import { assembleMetrics, badputSeconds } from "./policyMetrics.ts";
import { MAX_RECORDED_WRITES, type SyncRecording, slowRecorder } from "./synchronous/synchronous.ts";

/** A whole-job policy's timeline: the synchronous job's shape (states, curve, per-failure columns). */
export class WholeJobRecorder {
  readonly state = u8();
  readonly start = f64();
  readonly end = f64();
  readonly curve = new CurveBuilder();
  readonly stallPerFailure: Float64Array;
  readonly lostPerFailure: Float64Array;

  constructor(failures: number) {
    this.stallPerFailure = new Float64Array(failures);
    this.lostPerFailure = new Float64Array(failures);
  }

  interval(state: number, start: number, end: number): void {
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

/**
 * Training in checkpoint cycles of C seconds of training then a blocking write of W (C = 0: a
 * checkpoint at every step at no cost, nothing ever pending).
 */
export class CycleTraining {
  useful = 0;
  checkpoints = 0;
  checkpointSeconds = 0;
  /** Checkpoints completed by the last train() call. */
  completed = 0;
  /** Useful time at the start of the last train() call. */
  usefulAtStart = 0;
  /** Where the training pending at the end of the last train() call began (wall time). */
  pendingFrom = 0;
  /** §6: training time lost to slow hosts (the `slow` badput). */
  slowLoss = 0;
  private readonly cycle: number;
  private readonly recordEachWrite: boolean;

  constructor(
    readonly C: number,
    readonly W: number,
    horizon: number,
    private readonly rec: WholeJobRecorder | null,
    private readonly clock: SlowClock | null = null,
  ) {
    this.cycle = C + W;
    // As the synchronous job: past this many writes a timeline draws segments at their average rate.
    this.recordEachWrite = C > 0 && horizon / this.cycle <= MAX_RECORDED_WRITES;
  }

  /**
   * Train from `a` until `b` (a failure or the horizon). Returns the training done since the last
   * checkpoint completed in this call (or since `a`): what a rollback to it would lose. A write
   * cut short at `b` is lost (its time counts as checkpoint time); one ending at `b` completes.
   */
  train(a: number, b: number, failed: boolean): number {
    const { C, W, cycle, rec } = this;
    this.usefulAtStart = this.useful;
    if (this.clock?.overlaps(a, b)) return this.trainSlow(a, b, failed);
    rec?.curve.point(a, this.useful);
    const len = b - a;
    if (C <= 0) {
      this.useful += len;
      this.completed = 0;
      this.pendingFrom = b;
      rec?.curve.point(b, this.useful);
      return 0;
    }
    let k = Math.floor(len / cycle);
    let p = len - k * cycle;
    if (p < 0) {
      k--;
      p += cycle;
    }
    const pending = Math.min(p, C);
    this.pendingFrom = a + k * cycle;
    if (rec) {
      for (let j = 0; j < (this.recordEachWrite ? k : 0); j++) {
        const writeEnd = a + (j + 1) * cycle;
        const writeStart = Math.min(a + j * cycle + C, writeEnd);
        rec.curve.point(writeStart, this.useful + (j + 1) * C);
        rec.interval(SyncState.checkpointing, writeStart, writeEnd);
        rec.curve.point(writeEnd, this.useful + (j + 1) * C);
      }
      if (!this.recordEachWrite) rec.curve.point(this.pendingFrom, this.useful + k * C);
      const pendingEnd = p <= C ? b : this.pendingFrom + C;
      rec.curve.point(pendingEnd, this.useful + k * C + pending);
      if (failed) rec.interval(SyncState.rolledBack, this.pendingFrom, pendingEnd);
      rec.interval(SyncState.checkpointing, pendingEnd, b);
      rec.curve.point(b, this.useful + k * C + pending);
    }
    this.completed = k;
    this.checkpoints += k;
    this.checkpointSeconds += k * W + Math.max(0, p - C);
    this.useful += k * C + pending;
    return pending;
  }

  /** §6: train() when a host is slow in [a, b): the slow clock's walk, the same totals. */
  private trainSlow(a: number, b: number, failed: boolean): number {
    const { C, W, rec } = this;
    const o = this.clock!.walk(a, b, C, W, rec ? slowRecorder(rec, this.useful) : null);
    this.pendingFrom = o[SlowOut.pendingFrom]!;
    if (rec) {
      if (failed) rec.interval(SyncState.rolledBack, this.pendingFrom, o[SlowOut.pendingEnd]!);
      rec.interval(SyncState.checkpointing, o[SlowOut.pendingEnd]!, b);
    }
    this.completed = o[SlowOut.completed]!;
    this.checkpoints += this.completed;
    this.checkpointSeconds += o[SlowOut.writeSeconds]!;
    this.useful += o[SlowOut.progress]!;
    this.slowLoss += o[SlowOut.slowLoss]!;
    return o[SlowOut.pending]!;
  }
}

/**
 * A recovery's pieces: each failure that starts or restarts a recovery opens one, which ends at
 * the next such failure or at the recovery's end. A piece is detection until `waitFrom`, then a
 * wait for spares until `waitTo`, then the restart (a migration, for hot spares).
 */
export class RecoveryPieces {
  stall = 0;
  spareWait = 0;
  longestWait = 0;
  readonly badput = badputSeconds();
  readonly causeStall: Float64Array;
  private pieceStart = 0;
  private owner = -1;
  private waitFrom = 0;
  private waitTo = 0;
  private restartState: number = SyncState.recovering;

  constructor(
    private readonly trace: FailureTrace,
    causes: number,
    private readonly rec: WholeJobRecorder | null,
  ) {
    this.causeStall = new Float64Array(causes);
  }

  /** Failure `owner` opens a piece at `start`: detected at waitFrom, spares served by waitTo. */
  open(owner: number, start: number, waitFrom: number, waitTo: number, restartState: number): void {
    this.owner = owner;
    this.pieceStart = start;
    this.waitFrom = waitFrom;
    this.waitTo = Math.max(waitTo, waitFrom);
    this.restartState = restartState;
  }

  /** The open piece ends at `at` (the recovery's end, a new failure or the horizon). */
  close(at: number): void {
    const { pieceStart, waitFrom, waitTo, rec } = this;
    const len = at - pieceStart;
    this.stall += len;
    const c = this.trace.cause[this.owner]!;
    if (c >= 0) this.causeStall[c]! += len;
    const waited = waitTo > waitFrom ? Math.max(0, Math.min(at, waitTo) - waitFrom) : 0;
    const detecting = Math.min(at, waitFrom) - pieceStart;
    this.badput[Badput.detection]! += detecting;
    this.badput[Badput.spareWait]! += waited;
    this.badput[Badput.recovery]! += len - detecting - waited;
    this.spareWait += waited;
    if (waited > this.longestWait) this.longestWait = waited;
    if (rec) {
      rec.stallPerFailure[this.owner] = len;
      const detectEnd = Math.min(at, waitFrom);
      rec.interval(SyncState.recovering, pieceStart, detectEnd);
      rec.interval(SyncState.waitSpare, detectEnd, detectEnd + waited);
      rec.interval(this.restartState, detectEnd + waited, at);
    }
  }
}

/**
 * The end of a whole-job policy's run (inMemory, hotSpare): both stop the whole job at every
 * recovery, so their totals are the same expressions and only the count of job restarts differs.
 */
export function finishWholeJob(
  trace: FailureTrace,
  H: number,
  R: number,
  run: {
    tr: CycleTraining;
    pieces: RecoveryPieces;
    lost: number;
    jobRestarts: number;
    pool: SpareRequests | null;
    rec: WholeJobRecorder | null;
  },
): { metrics: PolicyMetrics; recording?: SyncRecording } {
  const { tr, pieces, lost, pool, rec } = run;
  const badput = pieces.badput;
  badput[Badput.checkpointWrite] = tr.checkpointSeconds;
  badput[Badput.rolledBack] = lost;
  badput[Badput.slow] = tr.slowLoss;
  const metrics = assembleMetrics(trace, {
    wallSeconds: H,
    usefulSeconds: tr.useful,
    stallSeconds: pieces.stall,
    lostWorkSeconds: lost,
    checkpoints: tr.checkpoints,
    checkpointSeconds: tr.checkpointSeconds,
    degradedSeconds: 0,
    healthyReplicaSeconds: R * (H - pieces.stall),
    secondsWithKDown: new Float64Array(0),
    jobRestarts: run.jobRestarts,
    spareWaitSeconds: pieces.spareWait,
    longestSpareWaitSeconds: pieces.longestWait,
    pool,
    causeStallSeconds: pieces.causeStall,
    badputSeconds: badput,
  });
  if (!rec) return { metrics };
  const recording = rec.build();
  if (pool?.history) recording.spares = pool.history;
  return { metrics, recording };
}
