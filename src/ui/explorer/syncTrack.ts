/** The synchronous job's lane: recoveries, blocking checkpoints, rolled-back work, failures. */
import type { Trace } from "../../sim/types.ts";
import { type LaneIndex, laneRuns, type Runs, singleLane, type View } from "./lod.ts";
import { type Layout, SYNC_H } from "./timelineLayout.ts";
import { drawMarkers, fillRuns } from "./timelineMarks.ts";
import type { HatchPattern, Palette } from "./timelinePalette.ts";
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
