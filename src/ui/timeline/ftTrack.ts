/**
 * A replica-level policy's lanes (FT-HSDP's): global stalls span every lane; each lane's own recovery (down, catching up,
 * rejoining) and its failures are drawn over them. Lanes group replicas when there are more
 * replicas than pixels allow.
 */
import type {
  FailureLog,
  FtIntervals,
  FtJobIntervals,
  ReplicaRecording,
  Spans,
  Trace,
} from "../../sim/types.ts";
import {
  LANE_LABEL_PX,
  LANE_SEPARATOR_PX,
  LANES_PER_STEP,
  type LaneIndex,
  LaneRunCursor,
  laneIndexByKeySteps,
  laneRunSteps,
  laneRuns,
  ROWS_PER_STEP,
  type Runs,
  singleLane,
  type View,
} from "./lod.ts";
import { hoverReplicaLane } from "./timelineHover.ts";
import {
  BUILT_IN_SPACE,
  datasetKey,
  GUTTER,
  type Layout,
  laneLabel,
  type ReplicaBand,
  replicaBand,
  replicaGroupId,
  replicaLanesId,
} from "./timelineLayout.ts";
import { failureMarkerSteps, fillRuns, fillTraining } from "./timelineMarks.ts";
import type { Palette } from "./timelinePalette.ts";
import {
  MAX_REPLAY_OUTLINES,
  type PolicyLane,
  type PolicyTrackType,
  type ReplayFrame,
  type ReplayMarks,
  type Track,
  type TrackFrame,
  type TrackInput,
  type TrackPointer,
} from "./timelineTrack.ts";
import { FT_KIND } from "./timelineTracks.ts";

/** What the replica-level policy's tracks read: the failures, and its recording by the old names. */
export interface ReplicaTrace {
  failures: FailureLog;
  ft: FtIntervals;
  ftStalls: Spans;
  ftJob: FtJobIntervals;
  stallPerFailure: Float64Array;
  lostPerFailure: Float64Array;
}

export function replicaTrace(trace: Pick<Trace, "failures">, rec: ReplicaRecording): ReplicaTrace {
  return {
    failures: trace.failures,
    ft: rec.intervals,
    ftStalls: rec.stalls,
    ftJob: rec.job,
    stallPerFailure: rec.stallPerFailure,
    lostPerFailure: rec.lostPerFailure,
  };
}

export class FtTrack {
  readonly stalls: LaneIndex;
  own!: LaneIndex;
  failures!: LaneIndex;
  private group = 0;

  constructor(
    private readonly trace: ReplicaTrace,
    /** The layout to index the lanes for at once; null leaves it to regroupSteps (build steps). */
    L: ReplicaBand | null,
  ) {
    this.stalls = singleLane(trace.ftStalls.start, trace.ftStalls.end);
    if (L) this.regroup(L);
  }

  /** Re-index the lanes when the layout groups replicas differently. */
  regroup(L: ReplicaBand): void {
    if (L.group === this.group) return;
    for (const step of this.regroupSteps(L)) step();
  }

  /**
   * The lanes' indexes for L as four steps, two for the intervals' and two for the failures'
   * (each a pass or two over up to a million rows: one step each was ~60 ms of CPU on the page's
   * first build of a million-failure run, and a task of 160–400 ms on a loaded two-core machine).
   */
  regroupSteps(L: ReplicaBand): (() => void)[] {
    const { ft, failures } = this.trace;
    const g = L.group;
    return [
      ...laneIndexByKeySteps(ft.replica, g, L.lanes, ft.start, ft.end, (idx) => {
        this.own = idx;
      }),
      ...laneIndexByKeySteps(failures.replica, g, L.lanes, failures.time, failures.time, (idx) => {
        this.failures = idx;
        this.group = g;
      }),
    ];
  }

  /**
   * Lane ranges [from, to) for draw steps: at most `lanes` lanes and, past the first lane, at
   * most `rows` interval and failure rows (all of them: what a whole-run frame scans).
   */
  laneSteps(L: ReplicaBand, lanes: number, rows: number): [number, number][] {
    const size = (idx: LaneIndex, l: number) => (idx.offsets[l + 1] as number) - (idx.offsets[l] as number);
    const out: [number, number][] = [];
    let from = 0;
    let taken = 0;
    for (let l = 0; l < L.lanes; l++) {
      const n = size(this.own, l) + size(this.failures, l);
      if (l > from && (l - from >= lanes || taken + n > rows)) {
        out.push([from, l]);
        from = l;
        taken = 0;
      }
      taken += n;
    }
    if (from < L.lanes) out.push([from, L.lanes]);
    return out;
  }

  /** Draws every lane; returns the marks issued. */
  draw(ctx: CanvasRenderingContext2D, L: ReplicaBand, view: View, runs: Runs, p: Palette): number {
    return this.drawStalls(ctx, L, view, runs, p) + this.drawLanes(ctx, L, view, runs, p, 0, L.lanes);
  }

  /** The global stalls, across every lane (drawn before the lanes' own states). */
  drawStalls(ctx: CanvasRenderingContext2D, L: ReplicaBand, view: View, runs: Runs, p: Palette): number {
    const { ftStalls } = this.trace;
    runs.clear();
    laneRuns(this.stalls, 0, ftStalls.start, ftStalls.end, () => 1, view, runs);
    return fillRuns(ctx, runs, L.y, L.h, { 1: p.stalled });
  }

  /** Lanes [from, to): their own states and failures; returns the marks issued. */
  drawLanes(
    ctx: CanvasRenderingContext2D,
    L: ReplicaBand,
    view: View,
    runs: Runs,
    p: Palette,
    from: number,
    to: number,
  ): number {
    let marks = 0;
    for (let lane = from; lane < Math.min(to, L.lanes); lane++)
      for (const step of this.laneDrawSteps(ctx, L, view, runs, p, lane, Number.POSITIVE_INFINITY))
        marks += step();
    return marks;
  }

  /** Interval and failure rows in lane l. */
  rowsIn(l: number): number {
    const size = (idx: LaneIndex) => (idx.offsets[l + 1] as number) - (idx.offsets[l] as number);
    return size(this.own) + size(this.failures);
  }

  /**
   * One lane as draw steps of at most `rows` rows each: its own states, then its failures (and
   * its separator). Each returns the marks it issued.
   */
  laneDrawSteps(
    ctx: CanvasRenderingContext2D,
    L: ReplicaBand,
    view: View,
    runs: Runs,
    p: Palette,
    lane: number,
    rows = ROWS_PER_STEP,
  ): (() => number)[] {
    const { ft } = this.trace;
    const ownStyles = { 2: p.rejoin, 3: p.catchUp, 4: p.down, 5: p.down, 6: p.waitSpare };
    const sep = L.laneH >= LANE_SEPARATOR_PX ? 1 : 0;
    const y = L.y + lane * L.laneH;
    const phase = (i: number) => FT_KIND[ft.phase[i] as number] ?? 0;
    const own = laneRunSteps(
      () => new LaneRunCursor(this.own, lane, ft.start, ft.end, phase, view, runs),
      runs,
      rows,
      () => fillRuns(ctx, runs, y, L.laneH - sep, ownStyles),
    );
    const marks = failureMarkerSteps(
      ctx,
      this.trace,
      this.failures,
      lane,
      { y, h: L.laneH - sep, plotWidth: L.plotWidth },
      view,
      runs,
      p,
      rows,
      () => {
        if (!sep) return;
        ctx.fillStyle = p.bg;
        ctx.fillRect(L.plotLeft, y + L.laneH - 1, L.plotWidth, 1);
      },
    );
    return [...own, ...marks];
  }
}

/**
 * The gutter: the group's title (at titleY, above the group's first track) and one label per lane
 * (no text under LANE_LABEL_PX: thin lanes label every n-th).
 */
export function drawLaneLabels(
  ctx: CanvasRenderingContext2D,
  L: ReplicaBand,
  titleY: number,
  replicas: number,
  p: Palette,
  title: string,
) {
  ctx.textAlign = "left";
  ctx.textBaseline = "middle";
  ctx.fillStyle = p.text;
  ctx.font = "600 12px system-ui, sans-serif";
  ctx.fillText(`${title}: ${replicas.toLocaleString("en-US")} replicas`, 4, titleY - 9);
  // A narrow gutter (a phone) gets the short names.
  const short = L.plotLeft < GUTTER;
  ctx.textAlign = "right";
  const size = Math.min(11, L.laneH - 2);
  const every = size >= LANE_LABEL_PX ? 1 : Math.ceil(12 / L.laneH);
  const font = Math.max(size, 9);
  ctx.font = `${font}px system-ui, sans-serif`;
  ctx.fillStyle = p.muted;
  for (let lane = 0; lane < L.lanes; lane += every) {
    const y = L.y + lane * L.laneH + (every === 1 ? L.laneH / 2 : font / 2);
    if (every > 1 && y + font / 2 > L.y + L.h) break;
    ctx.fillText(laneLabel(L, replicas, lane, short), L.plotLeft - 8, y);
  }
}

/** A replica-level policy's replica lanes as a track (id `replicas:<policyKey>`, its own slot). */
class ReplicaLanes implements Track {
  readonly id: string;
  index: FtTrack | null = null;

  constructor(
    private readonly run: TrackInput,
    private readonly lane: PolicyLane<ReplicaRecording>,
  ) {
    this.id = replicaLanesId(lane.key);
  }

  private get replicas(): number {
    return this.run.scenario.cluster.replicas;
  }

  /** Its grid in layout L. */
  band(L: Layout): ReplicaBand {
    const b = replicaBand(L, this.id, this.replicas);
    if (!b) throw new Error(`the layout has no slot for "${this.id}"`);
    return b;
  }

  space() {
    return BUILT_IN_SPACE.replicas(this.replicas, this.lane.key);
  }

  /** The stalls' index, then the lanes' in four steps (each a pass or two over up to a million rows). */
  buildSteps(L: Layout) {
    let lanes: (() => void)[] = [];
    return [
      () => {
        this.index = new FtTrack(replicaTrace(this.run.trace, this.lane.recording), null);
        lanes = this.index.regroupSteps(this.band(L));
      },
      // regroupSteps' steps (four), each a task of its own.
      ...[0, 1, 2, 3].map((i) => () => lanes[i]?.()),
    ];
  }

  private built(): FtTrack {
    if (!this.index) throw new Error("the replica lanes' build steps have not run");
    return this.index;
  }

  relayout(L: Layout) {
    this.built().regroup(this.band(L));
  }

  background(f: TrackFrame) {
    const B = this.band(f.layout);
    fillTraining(f, this.run.horizon, B.y, B.h);
  }

  /** The stalls, then a few lanes a step (LANES_PER_STEP, ROWS_PER_STEP). */
  drawSteps(f: TrackFrame) {
    const ft = this.built();
    const { ctx, view, runs, palette: p } = f;
    const B = this.band(f.layout);
    const steps = [() => ft.drawStalls(ctx, B, view, runs, p)];
    for (const [from, to] of ft.laneSteps(B, LANES_PER_STEP, ROWS_PER_STEP)) {
      // A lane with more rows than a step takes (a million failures on a dozen lanes) is drawn
      // a part at a time; smaller lanes go a few to a step.
      if (to - from === 1 && ft.rowsIn(from) > ROWS_PER_STEP)
        steps.push(...ft.laneDrawSteps(ctx, B, view, runs, p, from));
      else steps.push(() => ft.drawLanes(ctx, B, view, runs, p, from, to));
    }
    return steps;
  }

  drawLabels(f: TrackFrame) {
    const B = this.band(f.layout);
    const titleY = f.layout.groupTop[replicaGroupId(this.lane.key)] ?? B.y;
    drawLaneLabels(f.ctx, B, titleY, this.replicas, f.palette, this.lane.label);
  }

  hover(p: TrackPointer) {
    const ft = this.built();
    return hoverReplicaLane(
      this.run.trace,
      this.lane,
      this.replicas,
      ft.own,
      ft.failures,
      this.band(p.layout),
      p,
    );
  }

  /** The replay's outlines: each replica's phase under the cursor, and a global stall across the band. */
  replay(r: ReplayFrame): ReplayMarks {
    const B = this.band(r.layout);
    const pm = r.moment.policies.find((m) => m.key === this.lane.key);
    const rec = this.lane.recording;
    const out: ReplayMarks = { boxes: [], dashed: [] };
    if (pm?.kind !== "replicas") return out;
    const ft = rec.intervals;
    const rows = pm.ft.rows;
    for (let k = 0; k < rows.length && k < MAX_REPLAY_OUTLINES; k++) {
      const i = rows[k] as number;
      const lane = Math.floor((ft.replica[i] as number) / B.group);
      out.boxes.push([r.x(ft.start[i] as number), r.x(ft.end[i] as number), B.y + lane * B.laneH, B.laneH]);
    }
    if (pm.stallRow >= 0)
      out.dashed.push([
        r.x(rec.stalls.start[pm.stallRow] as number) - 2,
        r.x(rec.stalls.end[pm.stallRow] as number) + 2,
        B.y - 3,
        B.h + 6,
      ]);
    return out;
  }

  describe(L: Layout) {
    const B = this.band(L);
    return { [datasetKey("replicaLanes", this.lane.key)]: `${B.y},${B.laneH},${B.lanes}` };
  }
}

export const ftTrack: PolicyTrackType<"replicas"> = {
  id: "replicaLanes",
  kind: "replicas",
  create: (run, lane) => new ReplicaLanes(run, lane),
};
