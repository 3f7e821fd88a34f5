/** FT-HSDP's stall per failure (docs/model.md §3 "New metrics": per-cause stall), kept apart from the loop. */
import { IndexedMinHeap } from "../../indexedHeap.ts";

/**
 * Which failure each stalled second belongs to: a job restart's own failure; else the earliest
 * failure among the replicas then causing the stall (in a stall phase, or down while below
 * minReplicas). A checkpoint write's stall belongs to no failure.
 */
export class StallAttribution {
  /** The failure index each recovering replica is recovering from, as a heap key. */
  readonly failureOf: Float64Array;
  readonly stalling: IndexedMinHeap;
  readonly down: IndexedMinHeap;
  readonly stallPerFailure: Float64Array;

  constructor(R: number, failures: number) {
    this.failureOf = new Float64Array(R);
    this.stalling = new IndexedMinHeap(R, this.failureOf);
    this.down = new IndexedMinHeap(R, this.failureOf);
    this.stallPerFailure = new Float64Array(failures);
  }

  attribute(dt: number, stallPhases: number, belowMin: boolean, jobOwner: number): void {
    if (jobOwner >= 0) {
      this.stallPerFailure[jobOwner]! += dt;
      return;
    }
    const owners = stallPhases > 0 ? this.stalling : belowMin ? this.down : null;
    if (owners && owners.size > 0) this.stallPerFailure[this.failureOf[owners.top()]!]! += dt;
  }

  healthy(r: number): void {
    this.stalling.remove(r);
    this.down.remove(r);
  }
}
