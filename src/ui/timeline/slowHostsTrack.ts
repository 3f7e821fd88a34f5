/**
 * Slow hosts on a replica-level policy's lanes (docs/model.md §6): while a host is slow, its
 * replica's lane is shaded, painted with the lanes' background (over training, under every phase
 * and failure marker), so a slow replica reads at a glance and a recovery still shows through.
 * Hover on a lane adds the slow episodes of its replicas at that time. Drawn over the lanes' band
 * (id `slowHosts:<policyKey>`), made only when the run has episodes. The eviction that may end an
 * episode is a failure row, marked on the lane like any failure and named as an eviction.
 */
import type { SlowEpisodes } from "../../sim/slow/slowTypes.ts";
import type { ReplicaRecording } from "../../sim/types.ts";
import { type LaneIndex, laneIndexByKey, laneRuns } from "./lod.ts";
import { episodeLine, SlowIndex } from "./slowTrack.ts";
import {
  BUILT_IN_SPACE,
  type Layout,
  laneAt,
  type ReplicaBand,
  replicaBand,
  replicaLanesId,
  slowShadeId,
} from "./timelineLayout.ts";
import { fillRuns } from "./timelineMarks.ts";
import type {
  HoverInfo,
  PolicyLane,
  PolicyTrackType,
  Track,
  TrackFrame,
  TrackInput,
  TrackPointer,
} from "./timelineTrack.ts";

/** Slow episodes shown in one lane's tooltip (the rest are counted). */
const MAX_NAMED = 2;

class SlowShade implements Track {
  readonly id: string;
  private readonly lanesId: string;
  private index: SlowIndex | null = null;
  /** Each episode's replica, and the episodes by lane under the current grouping. */
  private replicaOf: Int32Array = new Int32Array(0);
  private byLane: LaneIndex | null = null;
  private group = 0;

  constructor(
    private readonly run: TrackInput & { trace: { slow: SlowEpisodes } },
    lane: PolicyLane<ReplicaRecording>,
  ) {
    this.id = slowShadeId(lane.key);
    this.lanesId = replicaLanesId(lane.key);
  }

  private band(L: Layout): ReplicaBand {
    const b = replicaBand(L, this.lanesId, this.run.scenario.cluster.replicas);
    if (!b) throw new Error(`the layout has no slot for "${this.lanesId}"`);
    return b;
  }

  space() {
    return BUILT_IN_SPACE.over(this.lanesId);
  }

  /** The episodes' replicas, then their lanes under L's grouping: a step each. */
  buildSteps(L: Layout) {
    return [
      () => {
        const idx = new SlowIndex(this.run.trace.slow, this.run.scenario, this.run.horizon);
        const ep = idx.ep;
        this.replicaOf = Int32Array.from(ep.host.subarray(0, ep.count), (h) => idx.hosts.replicaOf(h));
        this.index = idx;
      },
      () => this.regroup(this.band(L)),
    ];
  }

  private regroup(B: ReplicaBand): void {
    if (B.group === this.group) return;
    const ep = this.run.trace.slow;
    this.byLane = laneIndexByKey(
      this.replicaOf,
      B.group,
      B.lanes,
      ep.start.subarray(0, ep.count),
      ep.end.subarray(0, ep.count),
    );
    this.group = B.group;
  }

  relayout(L: Layout) {
    this.regroup(this.band(L));
  }

  private built(): { idx: SlowIndex; byLane: LaneIndex } {
    if (!this.index || !this.byLane) throw new Error("the slow shade's build steps have not run");
    return { idx: this.index, byLane: this.byLane };
  }

  /** Under the lanes' states and markers: the shade sits on training, a recovery covers it. */
  background({ ctx, layout: L, view, runs, palette: p }: TrackFrame) {
    const { byLane } = this.built();
    const B = this.band(L);
    const ep = this.run.trace.slow;
    for (let lane = 0; lane < B.lanes; lane++) {
      runs.clear();
      laneRuns(byLane, lane, ep.start, ep.end, () => 1, view, runs);
      fillRuns(ctx, runs, B.y + lane * B.laneH, B.laneH, { 1: p.slowShade });
    }
  }

  drawSteps() {
    return [];
  }

  /** On a lane: its replicas' slow episodes at the pointer's time, after what the lane says. */
  hover(p: TrackPointer, below: HoverInfo | null) {
    if (!below) return below;
    const { idx, byLane } = this.built();
    const ep = this.run.trace.slow;
    const lane = laneAt(this.band(p.layout), p.py);
    const under: number[] = [];
    const stop = byLane.offsets[lane + 1] as number;
    // The lane's rows are in start order: begin at the first that may still cover t.
    let q = byLane.offsets[lane] as number;
    for (let hi = stop, from = p.t - (byLane.maxDuration[lane] as number); q < hi; ) {
      const mid = (q + hi) >>> 1;
      if ((ep.start[byLane.rows[mid] as number] as number) < from) q = mid + 1;
      else hi = mid;
    }
    for (; q < stop; q++) {
      const e = byLane.rows[q] as number;
      if ((ep.start[e] as number) > p.t) break;
      if ((ep.end[e] as number) > p.t) under.push(e);
    }
    if (under.length === 0) return below;
    const lines = under
      .slice(0, MAX_NAMED)
      .map((e) => `Slow ${episodeLine(ep, e, idx.hosts, this.run.horizon)}`);
    if (under.length > MAX_NAMED) lines.push(`and ${under.length - MAX_NAMED} more slow hosts in this lane`);
    return { ...below, lines: [...below.lines, ...lines] };
  }
}

export const slowHostsTrack: PolicyTrackType<"replicas"> = {
  id: "slowHosts",
  kind: "replicas",
  create: (run, lane) => {
    const slow = run.trace.slow;
    return slow && slow.count > 0 ? new SlowShade({ ...run, trace: { ...run.trace, slow } }, lane) : null;
  },
};
