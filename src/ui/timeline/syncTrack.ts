/**
 * A whole-job policy's lane (synchronous, in-memory checkpoints, hot spares, any policy whose
 * recording is of kind "wholeJob"): recoveries, blocking checkpoints, rolled-back work,
 * migrations, failures. One lane per such policy, in display order, under its name.
 */
import type { FailureLog, SyncIntervals, Trace, WholeJobRecording } from "../../sim/types.ts";
import {
  type LaneIndex,
  LaneRunCursor,
  laneRunSteps,
  ROWS_PER_STEP,
  type Runs,
  singleLaneSteps,
  type View,
} from "./lod.ts";
import { hoverWholeJob } from "./timelineHover.ts";
import {
  BUILT_IN_SPACE,
  datasetKey,
  GUTTER,
  type Layout,
  SYNC_H,
  WHOLE_JOB_GAP,
  wholeJobLaneId,
} from "./timelineLayout.ts";
import { failureMarkerSteps, fillRuns, fillTraining } from "./timelineMarks.ts";
import type { HatchPattern, Palette } from "./timelinePalette.ts";
import type {
  PolicyLane,
  PolicyTrackType,
  ReplayFrame,
  ReplayMarks,
  Track,
  TrackFrame,
  TrackInput,
  TrackPointer,
} from "./timelineTrack.ts";
import { SYNC_KIND } from "./timelineTracks.ts";

export { wholeJobLaneId };

/** What a whole-job lane reads: the failures, and its policy's recording. */
export interface WholeJobTrace {
  failures: FailureLog;
  sync: SyncIntervals;
  stallPerFailure: Float64Array;
  lostPerFailure: Float64Array;
}

export function wholeJobTrace(trace: Trace, rec: WholeJobRecording): WholeJobTrace {
  return {
    failures: trace.failures,
    sync: rec.intervals,
    stallPerFailure: rec.stallPerFailure,
    lostPerFailure: rec.lostPerFailure,
  };
}

export class SyncTrack {
  states!: LaneIndex;
  failures!: LaneIndex;

  /** Indexes both at once (tests and hover); the page builds them in two steps (buildSteps). */
  constructor(
    private readonly trace: WholeJobTrace,
    /** The lane's top, CSS px (each whole-job policy's lane has its own). */
    private readonly y: (L: Layout) => number,
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
    const { sync } = this.trace;
    const stateKind = (i: number) => SYNC_KIND[sync.state[i] as number] ?? 0;
    const states = laneRunSteps(
      () => new LaneRunCursor(this.states, 0, sync.start, sync.end, stateKind, view, runs),
      runs,
      rows,
      () =>
        fillRuns(ctx, runs, this.y(L), SYNC_H, {
          1: hatch.get(ctx, p),
          2: p.checkpoint,
          3: p.recovering,
          4: p.waitSpare,
          5: p.catchUp,
        }),
    );
    const marks = failureMarkerSteps(
      ctx,
      this.trace,
      this.failures,
      0,
      { y: this.y(L), h: SYNC_H, plotWidth: L.plotWidth },
      view,
      runs,
      p,
      rows,
    );
    return [...states, ...marks];
  }
}

/** The lane's name in the gutter: "Synchronous job", or short on a phone ("Sync job"). */
export function wholeJobLabel(lane: Pick<PolicyLane, "label" | "shortLabel">, narrow: boolean): string {
  if (narrow) return lane.shortLabel.length <= 6 ? `${lane.shortLabel} job` : lane.shortLabel;
  return lane.label.length <= 15 ? `${lane.label} job` : `${lane.shortLabel} job`;
}

/** A whole-job policy's lane as a track. */
class WholeJobLane implements Track {
  readonly id: string;
  index: SyncTrack | null = null;
  private layout: Layout | null = null;

  constructor(
    private readonly run: TrackInput,
    private readonly lane: PolicyLane<WholeJobRecording>,
  ) {
    this.id = wholeJobLaneId(lane.key);
  }

  private y(L: Layout): number {
    const slot = L.slots[this.id];
    if (!slot) throw new Error(`the layout has no slot for "${this.id}"`);
    return slot.y;
  }

  space() {
    // The first lane sits under the axis as it always has; a later one leaves a gap above it.
    return this.lane.index === 0 ? BUILT_IN_SPACE.sync : { ...BUILT_IN_SPACE.sync, gapAbove: WHOLE_JOB_GAP };
  }

  buildSteps(L: Layout) {
    this.layout = L;
    const index = new SyncTrack(
      wholeJobTrace(this.run.trace, this.lane.recording),
      (at) => this.y(at),
      false,
    );
    return [
      ...index.buildSteps(),
      () => {
        this.index = index;
      },
    ];
  }

  relayout(L: Layout) {
    this.layout = L;
  }

  private built(): SyncTrack {
    if (!this.index) throw new Error("the whole-job lane's build steps have not run");
    return this.index;
  }

  background(f: TrackFrame) {
    this.layout = f.layout;
    fillTraining(f, this.run.horizon, this.y(f.layout), SYNC_H);
  }

  /** The states and the failures, in steps of at most ROWS_PER_STEP rows. */
  drawSteps(f: TrackFrame) {
    this.layout = f.layout;
    const { ctx, layout: L, view, runs, palette: p, hatch } = f;
    return this.built().drawSteps(ctx, L, view, runs, p, hatch);
  }

  drawLabels({ ctx, layout: L, palette: p }: TrackFrame) {
    ctx.textAlign = "right";
    ctx.textBaseline = "middle";
    ctx.fillStyle = p.text;
    ctx.font = "600 12px system-ui, sans-serif";
    // A narrow gutter (a phone) gets the short name.
    ctx.fillText(wholeJobLabel(this.lane, L.plotLeft < GUTTER), L.plotLeft - 8, this.y(L) + SYNC_H / 2);
  }

  hover(p: TrackPointer) {
    return hoverWholeJob(
      this.run.trace,
      this.lane,
      this.run.scenario.cluster.replicas,
      this.built().failures,
      this.y(p.layout),
      p,
    );
  }

  /** The replay's outline: the recovery under the cursor, on this lane. */
  replay(r: ReplayFrame): ReplayMarks {
    const pm = r.moment.policies.find((m) => m.key === this.lane.key);
    const iv = this.lane.recording.intervals;
    const boxes: ReplayMarks["boxes"] =
      pm?.kind === "wholeJob" && pm.row >= 0
        ? [[r.x(iv.start[pm.row] as number), r.x(iv.end[pm.row] as number), this.y(r.layout), SYNC_H]]
        : [];
    return { boxes, dashed: [] };
  }

  describe(L: Layout) {
    // A dataset key in camelCase: laneInMemory is the canvas's data-lane-in-memory.
    return { [datasetKey("lane", this.lane.key)]: `${this.y(L)},${SYNC_H}` };
  }

  // No summary: the timeline's label already names each selected policy, and "with a … job lane"
  // there means FT-HSDP's job lane (job restarts, FT checkpoints), which not every run has.
}

export const wholeJobTrack: PolicyTrackType<"wholeJob"> = {
  id: "wholeJob",
  kind: "wholeJob",
  create: (run, lane) => new WholeJobLane(run, lane),
};
