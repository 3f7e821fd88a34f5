/**
 * Draws the cluster timeline on a canvas: the axis (axisTrack.ts), the synchronous job's lane
 * (syncTrack.ts), one lane per FT-HSDP replica or group of replicas (ftTrack.ts), and answers
 * "what is under the pointer" (timelineHover.ts). Everything visible is found by binary search and
 * reduced to at most one mark per pixel column per lane (lod.ts), so a frame costs what is on
 * screen, not what was simulated. Time maps to pixels through one scale (timelineScale.ts).
 */
import type { Scenario } from "../../sim/scenario.ts";
import { derived } from "../../sim/scenario.ts";
import type { Trace } from "../../sim/types.ts";
import { drawAxis } from "./axisTrack.ts";
import { drawLaneLabels, FtTrack } from "./ftTrack.ts";
import { Runs, type View } from "./lod.ts";
import { SyncTrack } from "./syncTrack.ts";
import { type HoverInfo, hoverAt } from "./timelineHover.ts";
import { AXIS_H, computeLayout, type Layout, SYNC_H } from "./timelineLayout.ts";
import { HatchPattern, type Palette } from "./timelinePalette.ts";
import { windowScale } from "./timelineScale.ts";

export interface DrawStats {
  /** Rectangles issued this frame (after level-of-detail merging). */
  rects: number;
}

export class TimelineRenderer {
  private layout: Layout;
  private readonly horizon: number;
  private readonly R: number;
  private readonly sync: SyncTrack;
  private readonly ft: FtTrack;
  private readonly runs = new Runs();
  private readonly hatch = new HatchPattern();

  constructor(
    scenario: Scenario,
    private readonly trace: Trace,
    width: number,
  ) {
    this.horizon = derived(scenario).horizonSeconds;
    this.R = scenario.cluster.replicas;
    this.layout = computeLayout(width, this.R);
    this.sync = new SyncTrack(trace);
    this.ft = new FtTrack(trace, this.layout);
  }

  get currentLayout(): Layout {
    return this.layout;
  }

  get horizonSeconds(): number {
    return this.horizon;
  }

  /** Re-fit to a new width; lanes are regrouped only if their number changes. */
  resize(width: number): void {
    this.layout = computeLayout(width, this.R);
    this.ft.regroup(this.layout);
  }

  /** One full frame for the time window [t0, t1]. */
  draw(
    ctx: CanvasRenderingContext2D,
    t0: number,
    t1: number,
    p: Palette,
    selected: number | null,
  ): DrawStats {
    const L = this.layout;
    const x = windowScale(L, t0, t1);
    const view: View = { t0, t1, left: L.plotLeft, width: L.plotWidth };
    ctx.fillStyle = p.bg;
    ctx.fillRect(0, 0, L.width, L.height);
    drawAxis(ctx, L, x, p);

    // Both jobs train unless told otherwise: the background of every lane is "training".
    const x0 = Math.max(L.plotLeft, x(0));
    const x1 = Math.min(L.plotLeft + L.plotWidth, x(this.horizon));
    ctx.fillStyle = p.training;
    ctx.fillRect(x0, L.syncY, x1 - x0, SYNC_H);
    ctx.fillRect(x0, L.ftY, x1 - x0, L.ftH);

    let rects = this.sync.draw(ctx, L, view, this.runs, p, this.hatch);
    rects += this.ft.draw(ctx, L, view, this.runs, p);

    const failures = this.trace.failures.time;
    if (selected !== null && selected < failures.length) {
      const px = Math.round(x(failures[selected] as number)) + 0.5;
      if (px >= L.plotLeft && px <= L.plotLeft + L.plotWidth) {
        ctx.fillStyle = p.accent;
        ctx.fillRect(px - 1, AXIS_H - 4, 2, L.height - AXIS_H + 4);
      }
    }
    drawLaneLabels(ctx, L, this.R, p, L.syncY + SYNC_H / 2);
    return { rects };
  }

  /** What lies under canvas point (x, y) in window [t0, t1]; null outside the lanes. */
  hover(x: number, y: number, t0: number, t1: number): HoverInfo | null {
    const L = this.layout;
    const tracks = { sync: this.sync, ft: this.ft };
    return hoverAt(this.trace, L, this.R, this.horizon, tracks, windowScale(L, t0, t1), x, y);
  }
}
