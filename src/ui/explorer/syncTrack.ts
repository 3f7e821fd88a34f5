/** The synchronous job's lane: recoveries, blocking checkpoints, rolled-back work, failures. */
import type { Trace } from "../../sim/types.ts";
import { type LaneIndex, laneRuns, type Runs, singleLane, type View } from "./lod.ts";
import { hoverSync } from "./timelineHover.ts";
import { BUILT_IN_SPACE, GUTTER, type Layout, SYNC_H, TRACK_IDS } from "./timelineLayout.ts";
import { drawMarkers, fillRuns, fillTraining } from "./timelineMarks.ts";
import type { HatchPattern, Palette } from "./timelinePalette.ts";
import type { Track, TrackFrame, TrackInput, TrackPointer, TrackType } from "./timelineTrack.ts";
import { failureKind, SYNC_KIND } from "./timelineTracks.ts";

export class SyncTrack {
  readonly states: LaneIndex;
  readonly failures: LaneIndex;

  constructor(private readonly trace: Trace) {
    this.states = singleLane(trace.sync.start, trace.sync.end);
    this.failures = singleLane(trace.failures.time, trace.failures.time);
  }

  /** Draws the lane; returns the marks issued. */
  draw(ctx: CanvasRenderingContext2D, L: Layout, view: View, runs: Runs, p: Palette, hatch: HatchPattern) {
    return this.drawStates(ctx, L, view, runs, p, hatch) + this.drawFailures(ctx, L, view, runs, p);
  }

  /** The job's states (two draw steps with drawFailures: each scans up to a million rows). */
  drawStates(
    ctx: CanvasRenderingContext2D,
    L: Layout,
    view: View,
    runs: Runs,
    p: Palette,
    hatch: HatchPattern,
  ) {
    const { sync } = this.trace;
    runs.clear();
    laneRuns(
      this.states,
      0,
      sync.start,
      sync.end,
      (i) => SYNC_KIND[sync.state[i] as number] ?? 0,
      view,
      runs,
    );
    const marks = fillRuns(ctx, runs, L.syncY, SYNC_H, {
      1: hatch.get(ctx, p),
      2: p.checkpoint,
      3: p.recovering,
      4: p.waitSpare,
    });
    return marks;
  }

  /** The failure markers along the lane's top edge. */
  drawFailures(ctx: CanvasRenderingContext2D, L: Layout, view: View, runs: Runs, p: Palette) {
    const { failures } = this.trace;
    let marks = 0;
    runs.clear();
    laneRuns(this.failures, 0, failures.time, failures.time, failureKind(this.trace), view, runs);
    drawMarkers(ctx, runs, L.syncY, SYNC_H, L.plotWidth, p);
    marks += runs.n;
    return marks;
  }
}

/** The synchronous job's lane as a track. */
class SyncLane implements Track {
  readonly id = TRACK_IDS.sync;
  index: SyncTrack | null = null;

  constructor(private readonly run: TrackInput) {}

  space() {
    return BUILT_IN_SPACE.sync;
  }

  buildSteps() {
    return [
      () => {
        this.index = new SyncTrack(this.run.trace);
      },
    ];
  }

  private built(): SyncTrack {
    if (!this.index) throw new Error("the synchronous lane's build steps have not run");
    return this.index;
  }

  background(f: TrackFrame) {
    fillTraining(f, this.run.horizon, f.layout.syncY, SYNC_H);
  }

  /** Two draw steps, the states and the failures: each scans up to a million rows. */
  drawSteps(f: TrackFrame) {
    const s = this.built();
    const { ctx, layout: L, view, runs, palette: p, hatch } = f;
    return [() => s.drawStates(ctx, L, view, runs, p, hatch), () => s.drawFailures(ctx, L, view, runs, p)];
  }

  drawLabels({ ctx, layout: L, palette: p }: TrackFrame) {
    ctx.textAlign = "right";
    ctx.textBaseline = "middle";
    ctx.fillStyle = p.text;
    ctx.font = "600 12px system-ui, sans-serif";
    // A narrow gutter (a phone) gets the short name.
    ctx.fillText(L.plotLeft < GUTTER ? "Sync job" : "Synchronous job", L.plotLeft - 8, L.syncY + SYNC_H / 2);
  }

  hover(p: TrackPointer) {
    return hoverSync(this.run.trace, this.run.scenario.cluster.replicas, this.built().failures, p);
  }
}

export const syncTrack: TrackType = { id: TRACK_IDS.sync, create: (run) => new SyncLane(run) };
