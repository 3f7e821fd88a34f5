/**
 * What a recorded DiLoCo run keeps beside its metrics (docs/model.md §7): the replicas' recovery
 * phases (FT-HSDP's codes, so the replica lanes draw them), the global stalls (failed syncs, job
 * restarts), the job track (job restarts, checkpoint writes, rolled-back work), the progress
 * curve, and its own: each round (start, compute end, end, participants, outcome), each replica's
 * discarded work and its idle waits for the next round.
 */
import { CurveBuilder, f64, i32, u8 } from "../../columns.ts";
import type { SpareRequests } from "../../failures/spares.ts";
import type { FtJobState, ReplicaRecording, ReplicaSpans, RoundIntervals } from "../../types.ts";

/** DiLoCo's recording: replica lanes with its rounds. */
export type DilocoRecording = ReplicaRecording & { rounds: RoundIntervals };

class SpanColumns {
  readonly replica = i32();
  readonly start = f64();
  readonly end = f64();
  push(r: number, start: number, end: number): void {
    if (end <= start) return;
    this.replica.push(r);
    this.start.push(start);
    this.end.push(end);
  }
  build(): ReplicaSpans {
    return { replica: this.replica.toArray(), start: this.start.toArray(), end: this.end.toArray() };
  }
}

export class DilocoRecorder {
  readonly replica = i32();
  readonly phase = u8();
  readonly start = f64();
  readonly end = f64();
  readonly stallStart = f64();
  readonly stallEnd = f64();
  readonly jobState = u8();
  readonly jobStart = f64();
  readonly jobEnd = f64();
  readonly curve = new CurveBuilder();
  readonly roundStart = f64();
  readonly roundComputeEnd = f64();
  readonly roundEnd = f64();
  readonly roundParticipants = i32();
  readonly roundOutcome = u8();
  readonly discarded = new SpanColumns();
  readonly idle = new SpanColumns();
  readonly row: Int32Array;
  /** When each replica became healthy outside a round (NaN: in a round, or down). */
  readonly idleSince: Float64Array;
  readonly stallPerFailure: Float64Array;
  readonly lostPerFailure: Float64Array;

  constructor(R: number, failures: number) {
    this.row = new Int32Array(R);
    this.idleSince = new Float64Array(R).fill(Number.NaN);
    this.stallPerFailure = new Float64Array(failures);
    this.lostPerFailure = new Float64Array(failures);
  }

  enter(r: number, phase: number, start: number, end: number): void {
    this.row[r] = this.replica.push(r);
    this.phase.push(phase);
    this.start.push(start);
    this.end.push(end);
  }

  /** The replica's current phase ends at t (early when a new failure cancels it). */
  leave(r: number, t: number): void {
    this.end.set(this.row[r]!, t);
  }

  job(state: FtJobState, start: number, end: number): void {
    if (end <= start) return;
    this.jobState.push(state);
    this.jobStart.push(start);
    this.jobEnd.push(end);
  }

  stall(start: number, end: number): void {
    if (end <= start) return;
    const n = this.stallEnd.length;
    if (n > 0 && this.stallEnd.get(n - 1) >= start) {
      if (end > this.stallEnd.get(n - 1)) this.stallEnd.set(n - 1, end);
      return;
    }
    this.stallStart.push(start);
    this.stallEnd.push(end);
  }

  /** A round begins: returns its row, whose end and outcome are set when it is resolved. */
  round(start: number, participants: number): number {
    const row = this.roundStart.push(start);
    this.roundComputeEnd.push(Number.NaN);
    this.roundEnd.push(Number.NaN);
    this.roundParticipants.push(participants);
    this.roundOutcome.push(0);
    return row;
  }

  computeEnd(row: number, t: number): void {
    this.roundComputeEnd.set(row, t);
  }

  resolve(row: number, t: number, outcome: number): void {
    if (row < 0) return;
    this.roundEnd.set(row, t);
    this.roundOutcome.set(row, outcome);
  }

  idleFrom(r: number, t: number): void {
    this.idleSince[r] = t;
  }

  /** An idle replica joins a round, or is struck, at t. */
  idleTo(r: number, t: number): void {
    const since = this.idleSince[r]!;
    if (!Number.isNaN(since)) this.idle.push(r, since, t);
    this.idleSince[r] = Number.NaN;
  }

  build(H: number, pool: SpareRequests | null): DilocoRecording {
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
    for (let r = 0; r < this.idleSince.length; r++) this.idleTo(r, H);
    const roundEnd = this.roundEnd.toArray();
    for (let k = 0; k < roundEnd.length; k++) if (Number.isNaN(roundEnd[k]!)) roundEnd[k] = H;
    const recording: DilocoRecording = {
      kind: "replicas",
      intervals: {
        replica: replica.slice(0, kept),
        phase: phase.slice(0, kept),
        start: start.slice(0, kept),
        end: end.slice(0, kept),
      },
      stalls: { start: this.stallStart.toArray(), end: this.stallEnd.toArray() },
      job: { state: this.jobState.toArray(), start: this.jobStart.toArray(), end: this.jobEnd.toArray() },
      progress: this.curve.build(),
      stallPerFailure: this.stallPerFailure,
      lostPerFailure: this.lostPerFailure,
      rounds: {
        start: this.roundStart.toArray(),
        computeEnd: this.roundComputeEnd.toArray(),
        end: roundEnd,
        participants: this.roundParticipants.toArray(),
        outcome: this.roundOutcome.toArray(),
        discarded: this.discarded.build(),
        idle: this.idle.build(),
      },
    };
    if (pool?.history) recording.spares = pool.history;
    return recording;
  }
}
