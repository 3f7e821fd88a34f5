/**
 * Slow hosts on a replica-level policy's lanes (docs/model.md §6): while a host is slow, its
 * replica's lane is shaded, painted with the lanes' background (over training, under every phase
 * and failure marker), so a slow replica reads at a glance and a recovery still shows through.
 * Hover on a lane adds the slow episodes of its replicas at that time. Drawn over the lanes' band
 * (id `slowHosts:<policyKey>`), made only when the run has episodes. The eviction that may end an
 * episode is a failure row, marked on the lane like any failure and named as an eviction.
 */
import type { SlowEpisodes } from "../../sim/slow/slowTypes.ts";
import { LaneSpans, OverReplicaLanes } from "./overReplicaLanes.ts";
import { episodeLine, SlowIndex } from "./slowTrack.ts";
import { type Layout, slowShadeId } from "./timelineLayout.ts";
import type { HoverInfo, PolicyTrackType, TrackFrame, TrackInput, TrackPointer } from "./timelineTrack.ts";

/** Slow episodes shown in one lane's tooltip (the rest are counted). */
const MAX_NAMED = 2;

class SlowShade extends OverReplicaLanes<TrackInput & { trace: { slow: SlowEpisodes } }> {
  private index: SlowIndex | null = null;
  private spans: LaneSpans | null = null;

  /** The episodes' replicas, then their lanes under L's grouping: a step each. */
  buildSteps(L: Layout) {
    return [
      () => {
        const idx = new SlowIndex(this.run.trace.slow, this.run.scenario, this.run.horizon);
        const ep = idx.ep;
        const replicaOf = Int32Array.from(ep.host.subarray(0, ep.count), (h) => idx.hosts.replicaOf(h));
        this.spans = new LaneSpans(replicaOf, ep.start.subarray(0, ep.count), ep.end.subarray(0, ep.count));
        this.index = idx;
      },
      () => this.spans?.regroup(this.band(L)),
    ];
  }

  relayout(L: Layout) {
    this.spans?.regroup(this.band(L));
  }

  private built(): { idx: SlowIndex; spans: LaneSpans } {
    if (!this.index || !this.spans) throw new Error("the slow shade's build steps have not run");
    return { idx: this.index, spans: this.spans };
  }

  /** Under the lanes' states and markers: the shade sits on training, a recovery covers it. */
  background(f: TrackFrame) {
    this.built().spans.fill(f, this.band(f.layout), () => 1, { 1: f.palette.slowShade });
  }

  /** On a lane: its replicas' slow episodes at the pointer's time, after what the lane says. */
  hover(p: TrackPointer, below: HoverInfo | null) {
    if (!below) return below;
    const { idx, spans } = this.built();
    const ep = this.run.trace.slow;
    const under = spans.at(this.laneUnder(p), p.t);
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
    return slow && slow.count > 0
      ? new SlowShade(slowShadeId(lane.key), { ...run, trace: { ...run.trace, slow } }, lane)
      : null;
  },
};
