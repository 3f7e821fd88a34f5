/**
 * Draws the cluster timeline on a canvas: the axis (axisTrack.ts), the synchronous job's lane
 * (syncTrack.ts), the FT-HSDP job lane when there is one (jobTrack.ts), one lane per FT-HSDP
 * replica or group of replicas (ftTrack.ts) with rack marks over them (rackTrack.ts), the
 * spare-pool chart with a limited pool (spareTrack.ts), and answers
 * "what is under the pointer" (timelineHover.ts). Everything visible is found by binary search and
 * reduced to at most one mark per pixel column per lane (lod.ts), so a frame costs what is on
 * screen, not what was simulated. Time maps to pixels through one scale (timelineScale.ts).
 */
import type { Scenario } from "../../sim/scenario.ts";
import { derived } from "../../sim/scenario.ts";
import type { Trace } from "../../sim/types.ts";
import { drawAxis } from "./axisTrack.ts";
import { drawLaneLabels, FtTrack } from "./ftTrack.ts";
import { hasJobLane, JobTrack } from "./jobTrack.ts";
import { Runs, type View } from "./lod.ts";
import { RackTrack } from "./rackTrack.ts";
import { hasSpareChart, SpareTrack } from "./spareTrack.ts";
import { SyncTrack } from "./syncTrack.ts";
import { type HoverInfo, hoverAt } from "./timelineHover.ts";
import { AXIS_H, computeLayout, GUTTER, type Layout, type LayoutParts, SYNC_H } from "./timelineLayout.ts";
import { HatchPattern, type Palette } from "./timelinePalette.ts";
import { windowScale } from "./timelineScale.ts";

/** FT-HSDP lanes per draw step (drawSteps): a few ms each however dense the run. */
const LANES_PER_STEP = 16;
/** …and at most this many rows (past one lane): a million-failure run's 12 lanes take a step each. */
const ROWS_PER_STEP = 100_000;

export interface DrawStats {
  /** Rectangles issued this frame (after level-of-detail merging). */
  rects: number;
}

/** The tracks a renderer draws. */
interface Tracks {
  sync: SyncTrack;
  ft: FtTrack;
  job: JobTrack | null;
  racks: RackTrack;
  spares: SpareTrack | null;
}

/** The tracks' build as steps that fill `t`, each one track's indexes or a part of them. */
function trackSteps(scenario: Scenario, trace: Trace, layout: Layout, t: Partial<Tracks>): (() => void)[] {
  const horizon = derived(scenario).horizonSeconds;
  let ftLanes: (() => void)[] = [];
  return [
    () => {
      t.sync = new SyncTrack(trace);
    },
    () => {
      t.ft = new FtTrack(trace, null);
      ftLanes = t.ft.regroupSteps(layout);
    },
    () => ftLanes[0]?.(),
    () => ftLanes[1]?.(),
    () => {
      t.job = hasJobLane(trace) ? new JobTrack(trace) : null;
    },
    () => {
      t.racks = new RackTrack(trace, scenario.cluster.replicas, scenario.cluster.hostsPerRack, null);
    },
    () => t.racks?.regroup(layout),
    () => {
      t.spares = hasSpareChart(trace) ? new SpareTrack(trace, horizon) : null;
    },
  ];
}

function whole(t: Partial<Tracks>): Tracks {
  const { sync, ft, job, racks, spares } = t;
  if (!sync || !ft || job === undefined || !racks || spares === undefined)
    throw new Error("the timeline renderer's build steps have not all run");
  return { sync, ft, job, racks, spares };
}

/**
 * A renderer built in steps, each one track's indexes (tens of ms at most on the largest runs,
 * where the whole build was one task of ~200–300 ms): a caller runs them in order, in separate
 * tasks if it likes, then `renderer()` gives the renderer `new TimelineRenderer` would.
 */
export function rendererBuildSteps(
  scenario: Scenario,
  trace: Trace,
  width: number,
): { steps: (() => void)[]; renderer: () => TimelineRenderer } {
  const layout = computeLayout(width, scenario.cluster.replicas, layoutParts(trace));
  const t: Partial<Tracks> = {};
  return {
    steps: trackSteps(scenario, trace, layout, t),
    renderer: () => new TimelineRenderer(scenario, trace, width, whole(t)),
  };
}

function layoutParts(trace: Trace): LayoutParts {
  return { jobLane: hasJobLane(trace), spareChart: hasSpareChart(trace) };
}

export class TimelineRenderer {
  private layout: Layout;
  private readonly horizon: number;
  private readonly R: number;
  private readonly sync: SyncTrack;
  private readonly ft: FtTrack;
  /** Present only when the run has something to draw there. */
  readonly job: JobTrack | null;
  readonly racks: RackTrack;
  readonly spares: SpareTrack | null;
  private readonly parts: LayoutParts;
  private readonly runs = new Runs();
  private readonly hatch = new HatchPattern();

  constructor(
    scenario: Scenario,
    private readonly trace: Trace,
    width: number,
    /** Tracks already built for this trace and width (rendererBuildSteps); built here if absent. */
    built?: Tracks,
  ) {
    this.horizon = derived(scenario).horizonSeconds;
    this.R = scenario.cluster.replicas;
    this.parts = layoutParts(trace);
    this.layout = computeLayout(width, this.R, this.parts);
    let tracks = built;
    if (!tracks) {
      const t: Partial<Tracks> = {};
      for (const step of trackSteps(scenario, trace, this.layout, t)) step();
      tracks = whole(t);
    }
    this.sync = tracks.sync;
    this.ft = tracks.ft;
    this.job = tracks.job;
    this.racks = tracks.racks;
    this.spares = tracks.spares;
  }

  get currentLayout(): Layout {
    return this.layout;
  }

  get horizonSeconds(): number {
    return this.horizon;
  }

  /** Re-fit to a new width; lanes are regrouped only if their number changes. */
  resize(width: number): void {
    this.layout = computeLayout(width, this.R, this.parts);
    this.ft.regroup(this.layout);
    this.racks.regroup(this.layout);
  }

  /** One full frame for the time window [t0, t1]. */
  draw(
    ctx: CanvasRenderingContext2D,
    t0: number,
    t1: number,
    p: Palette,
    selected: number | null,
  ): DrawStats {
    let rects = 0;
    for (const step of this.drawSteps(ctx, t0, t1, p, selected)) rects += step();
    return { rects };
  }

  /**
   * The same frame as draw, as steps to run in order (each returns the marks it issued): a
   * caller may spread them over several tasks, so that the largest runs (a million failures, or
   * 100,000 replicas with a spare chart) never hold the main thread for one long task. Each step
   * is bounded: one track, a few lanes, or one spare pool.
   */
  drawSteps(
    ctx: CanvasRenderingContext2D,
    t0: number,
    t1: number,
    p: Palette,
    selected: number | null,
  ): (() => number)[] {
    const L = this.layout;
    const x = windowScale(L, t0, t1);
    const view: View = { t0, t1, left: L.plotLeft, width: L.plotWidth };
    const steps: (() => number)[] = [];
    steps.push(() => {
      ctx.fillStyle = p.bg;
      ctx.fillRect(0, 0, L.width, L.height);
      drawAxis(ctx, L, x, p);
      // Both jobs train unless told otherwise: the background of every lane is "training".
      const x0 = Math.max(L.plotLeft, x(0));
      const x1 = Math.min(L.plotLeft + L.plotWidth, x(this.horizon));
      ctx.fillStyle = p.training;
      ctx.fillRect(x0, L.syncY, x1 - x0, SYNC_H);
      ctx.fillRect(x0, L.ftY, x1 - x0, L.ftH);
      if (this.job) ctx.fillRect(x0, L.jobY, x1 - x0, L.jobH);
      return this.sync.drawStates(ctx, L, view, this.runs, p, this.hatch);
    });
    steps.push(() => this.sync.drawFailures(ctx, L, view, this.runs, p));
    const job = this.job;
    if (job) steps.push(() => job.draw(ctx, L, view, this.runs, p, this.hatch));
    steps.push(() => this.ft.drawStalls(ctx, L, view, this.runs, p));
    for (const [from, to] of this.ft.laneSteps(L, LANES_PER_STEP, ROWS_PER_STEP))
      steps.push(() => this.ft.drawLanes(ctx, L, view, this.runs, p, from, to));
    steps.push(() => this.racks.draw(ctx, L, view, this.runs, p));
    const spares = this.spares;
    if (spares) {
      steps.push(() => {
        spares.drawGrid(ctx, L, p);
        return 0;
      });
      for (let k = 0; k < spares.poolCount; k++)
        for (const part of ["waiting", "available"] as const)
          steps.push(() => spares.drawPool(ctx, L, view, p, k, part));
    }
    steps.push(() => {
      const failures = this.trace.failures.time;
      if (selected !== null && selected < failures.length) {
        const px = Math.round(x(failures[selected] as number)) + 0.5;
        if (px >= L.plotLeft && px <= L.plotLeft + L.plotWidth) {
          ctx.fillStyle = p.accent;
          ctx.fillRect(px - 1, AXIS_H - 4, 2, L.height - AXIS_H + 4);
        }
      }
      drawLaneLabels(ctx, L, this.R, p, L.syncY + SYNC_H / 2);
      if (this.job) {
        ctx.textAlign = "right";
        ctx.textBaseline = "middle";
        ctx.fillStyle = p.text;
        ctx.font = "600 11px system-ui, sans-serif";
        ctx.fillText(L.plotLeft < GUTTER ? "FT job" : "FT-HSDP job", L.plotLeft - 8, L.jobY + L.jobH / 2);
      }
      this.spares?.drawLabels(ctx, L, p);
      return 0;
    });
    return steps;
  }

  /** What lies under canvas point (x, y) in window [t0, t1]; null outside the lanes. */
  hover(x: number, y: number, t0: number, t1: number): HoverInfo | null {
    const L = this.layout;
    const scale = windowScale(L, t0, t1);
    if (x < L.plotLeft || x > L.plotLeft + L.plotWidth) return null;
    const t = scale.invert(x);
    if (t < 0 || t > this.horizon) return null;
    if (this.job && y >= L.jobY && y < L.jobY + L.jobH) return this.job.hover(scale, x);
    if (this.spares && y >= L.spareY - 2 && y < L.spareY + L.spareH + 2) return this.spares.hover(t);
    const tracks = { sync: this.sync, ft: this.ft };
    const info = hoverAt(this.trace, L, this.R, this.horizon, tracks, scale, x, y);
    if (y < L.ftY || y >= L.ftY + L.ftH) return info;
    // A rack event that struck several replicas: say so, on every lane it struck.
    const lane = Math.min(L.lanes - 1, Math.floor((y - L.ftY) / L.laneH));
    const rack = this.racks.hover(lane, t, scale.invert(x + 5) - t, info?.failure ?? null);
    if (!info || !rack) return info;
    return { ...info, lines: [...info.lines, rack.line], failure: rack.failure };
  }
}
