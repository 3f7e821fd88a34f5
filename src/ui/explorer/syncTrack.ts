/** The synchronous job's lane: recoveries, blocking checkpoints, rolled-back work, failures. */
import type { Trace } from "../../sim/types.ts";
import {
  type LaneIndex,
  LaneRunCursor,
  laneRunSteps,
  ROWS_PER_STEP,
  type Runs,
  singleLaneSteps,
  type View,
} from "./lod.ts";
import { hoverSync } from "./timelineHover.ts";
import { BUILT_IN_SPACE, GUTTER, type Layout, SYNC_H, TRACK_IDS } from "./timelineLayout.ts";
import { drawMarkers, fillRuns, fillTraining } from "./timelineMarks.ts";
import type { HatchPattern, Palette } from "./timelinePalette.ts";
import type { Track, TrackFrame, TrackInput, TrackPointer, TrackType } from "./timelineTrack.ts";
import { failureKind, SYNC_KIND } from "./timelineTracks.ts";

export class SyncTrack {
  states!: LaneIndex;
  failures!: LaneIndex;

  /** Indexes both at once (tests and hover); the page builds them in two steps (buildSteps). */
  constructor(
    private readonly trace: Trace,
    now = true,
  ) {
    if (now) for (const step of this.buildSteps()) step();
  }

  /** The states' index, then the failures' (a million rows a few steps each). */
  buildSteps(): (() => void)[] {
    const { sync, failures } = this.trace;
    return [
      ...singleLaneSteps(sync.start, sync.end, (idx) => {
        this.states = idx;
      }),
      ...singleLaneSteps(failures.time, failures.time, (idx) => {
        this.failures = idx;
      }),
    ];
  }

  /** Draws the lane; returns the marks issued. */
  draw(ctx: CanvasRenderingContext2D, L: Layout, view: View, runs: Runs, p: Palette, hatch: HatchPattern) {
    let marks = 0;
    for (const step of this.drawSteps(ctx, L, view, runs, p, hatch, Number.POSITIVE_INFINITY))
      marks += step();
    return marks;
  }

  /**
   * The job's states, then the failure markers along the lane's top edge, as draw steps of at
   * most `rows` rows each (a million-failure run's lane is several steps, none a long task).
   */
  drawSteps(
    ctx: CanvasRenderingContext2D,
    L: Layout,
    view: View,
    runs: Runs,
    p: Palette,
    hatch: HatchPattern,
    rows = ROWS_PER_STEP,
  ): (() => number)[] {
    const { sync, failures } = this.trace;
    const stateKind = (i: number) => SYNC_KIND[sync.state[i] as number] ?? 0;
    const states = laneRunSteps(
      () => new LaneRunCursor(this.states, 0, sync.start, sync.end, stateKind, view, runs),
      runs,
      rows,
      () =>
        fillRuns(ctx, runs, L.syncY, SYNC_H, {
          1: hatch.get(ctx, p),
          2: p.checkpoint,
          3: p.recovering,
          4: p.waitSpare,
        }),
    );
    const marks = laneRunSteps(
      () =>
        new LaneRunCursor(
          this.failures,
          0,
          failures.time,
          failures.time,
          failureKind(this.trace),
          view,
          runs,
        ),
      runs,
      rows,
      () => {
        drawMarkers(ctx, runs, L.syncY, SYNC_H, L.plotWidth, p);
        return runs.n;
      },
    );
    return [...states, ...marks];
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
    const index = new SyncTrack(this.run.trace, false);
    return [
      ...index.buildSteps(),
      () => {
        this.index = index;
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

  /** The states and the failures, in steps of at most ROWS_PER_STEP rows. */
  drawSteps(f: TrackFrame) {
    const { ctx, layout: L, view, runs, palette: p, hatch } = f;
    return this.built().drawSteps(ctx, L, view, runs, p, hatch);
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
