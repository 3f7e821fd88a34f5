/** What a recorded FT-HSDP run keeps beside its metrics (docs/model.md §3): lanes, stalls, job track, curve. */
import { CurveBuilder, f64, i32, u8 } from "../../columns.ts";
import type { SpareRequests } from "../../failures/spares.ts";
import type { FtJobState, ReplicaRecording } from "../../types.ts";
import type { StallAttribution } from "./ftStallAttribution.ts";

/**
 * FT-HSDP's recording: replica lanes (types.ts's ReplicaRecording); its stall per failure is the
 * global stall not already covered by an earlier failure's stall.
 */
export type FtRecording = ReplicaRecording;

/** What only a recorded run keeps: the phase intervals, the stall spans, the job track, the progress curve. */
export class FtRecorder {
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
  readonly row: Int32Array;
  readonly lostPerFailure: Float64Array;

  constructor(
    R: number,
    failures: number,
    readonly attr: StallAttribution,
  ) {
    this.row = new Int32Array(R);
    this.lostPerFailure = new Float64Array(failures);
  }

  enter(r: number, phase: number, start: number, end: number, stalls: boolean): void {
    this.row[r] = this.replica.push(r);
    this.phase.push(phase);
    this.start.push(start);
    this.end.push(end);
    if (stalls) this.attr.stalling.upsert(r);
    else this.attr.stalling.remove(r);
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

  /** Stall spans are merged: one that starts where the last ended continues it. */
  stallTransition(stalled: boolean, t: number): void {
    if (!stalled) this.stallEnd.push(t);
    else if (this.stallEnd.length > 0 && this.stallEnd.last() === t) this.stallEnd.length--;
    else this.stallStart.push(t);
  }

  /**
   * The intervals, clipped to the horizon, without the empty ones: a phase entered at the very
   * instant a new failure cancels it.
   */
  build(H: number, pool: SpareRequests | null): FtRecording {
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
    const recording: FtRecording = {
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
      stallPerFailure: this.attr.stallPerFailure,
      lostPerFailure: this.lostPerFailure,
    };
    if (pool?.history) recording.spares = pool.history;
    return recording;
  }
}
