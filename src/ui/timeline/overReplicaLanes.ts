/**
 * What the tracks drawn over a replica-level policy's replica lanes have in common (rack marks,
 * slow hosts, DiLoCo's round work): they take no room of their own but draw on the lanes' band,
 * on the lanes' grid, so that a mark falls on the lane of the replica it is about; and they add to
 * the lanes' words on hover. LaneSpans is the index a shade over the lanes fills and reads back.
 */
import type { ReplicaRecording } from "../../sim/types.ts";
import { type LaneIndex, laneIndexByKey, laneRuns } from "./lod.ts";
import {
  BUILT_IN_SPACE,
  type Layout,
  laneAt,
  type ReplicaBand,
  replicaBand,
  replicaLanesId,
} from "./timelineLayout.ts";
import { fillRuns } from "./timelineMarks.ts";
import type { PolicyLane, Track, TrackFrame, TrackInput, TrackPointer } from "./timelineTrack.ts";

export abstract class OverReplicaLanes<I extends TrackInput = TrackInput> implements Track {
  protected readonly lanesId: string;

  constructor(
    readonly id: string,
    protected readonly run: I,
    protected readonly lane: PolicyLane<ReplicaRecording>,
  ) {
    this.lanesId = replicaLanesId(lane.key);
  }

  /** The lanes' grid in layout L, as the lanes themselves read it. */
  protected band(L: Layout): ReplicaBand {
    const b = replicaBand(L, this.lanesId, this.run.scenario.cluster.replicas);
    if (!b) throw new Error(`the layout has no slot for "${this.lanesId}"`);
    return b;
  }

  space() {
    return BUILT_IN_SPACE.over(this.lanesId);
  }

  protected laneUnder(p: TrackPointer): number {
    return laneAt(this.band(p.layout), p.py);
  }

  abstract buildSteps(L: Layout): (() => void)[];

  /** None: a shade paints in background(), under the lanes' own marks. */
  drawSteps(_f: TrackFrame): (() => number)[] {
    return [];
  }
}

/**
 * Spans of replicas [start, end), sorted by start, indexed by lane under the band's grouping:
 * re-indexed only when a relayout groups the replicas differently.
 */
export class LaneSpans {
  private byLane: LaneIndex | null = null;
  private group = 0;

  constructor(
    private readonly replica: ArrayLike<number>,
    private readonly start: ArrayLike<number>,
    private readonly end: ArrayLike<number>,
  ) {}

  regroup(B: ReplicaBand): void {
    if (B.group === this.group) return;
    this.byLane = laneIndexByKey(this.replica, B.group, B.lanes, this.start, this.end);
    this.group = B.group;
  }

  private indexed(): LaneIndex {
    if (!this.byLane) throw new Error("the lane spans have not been grouped for a layout");
    return this.byLane;
  }

  /** Fills each lane of B with its spans, by kind (the larger kind wins a shared pixel column). */
  fill(
    { ctx, view, runs }: TrackFrame,
    B: ReplicaBand,
    kind: (row: number) => number,
    styles: Record<number, string | CanvasPattern>,
  ): void {
    const idx = this.indexed();
    for (let lane = 0; lane < B.lanes; lane++) {
      runs.clear();
      laneRuns(idx, lane, this.start, this.end, kind, view, runs);
      fillRuns(ctx, runs, B.y + lane * B.laneH, B.laneH, styles);
    }
  }

  /** The rows on `lane` whose span holds t, in start order. */
  at(lane: number, t: number): number[] {
    const idx = this.indexed();
    const stop = idx.offsets[lane + 1] as number;
    // No span longer than the lane's longest can reach t from before t − that.
    let q = idx.offsets[lane] as number;
    for (let hi = stop, from = t - (idx.maxDuration[lane] as number); q < hi; ) {
      const mid = (q + hi) >>> 1;
      if ((this.start[idx.rows[mid] as number] as number) < from) q = mid + 1;
      else hi = mid;
    }
    const out: number[] = [];
    for (; q < stop; q++) {
      const i = idx.rows[q] as number;
      if ((this.start[i] as number) > t) break;
      if ((this.end[i] as number) > t) out.push(i);
    }
    return out;
  }
}
