/**
 * The spare-pool chart under the timeline (docs/model.md §3 "Spare hosts"): spare hosts available
 * over time, one step line per policy (each policy has its own pool), and the replacement
 * requests waiting for a host shaded below zero. Same time scale and zoom as the lanes above;
 * drawn with d3-shape on the canvas. A step function with more changes than pixels is reduced
 * to its lowest, highest and last value per pixel column (stepSeries), so a frame costs the
 * plot's width, not the run's length. Shown only with a limited pool.
 */
import { type ScaleLinear, scaleLinear } from "d3-scale";
import { area, curveStepAfter, line } from "d3-shape";
import { policyOf } from "../../sim/policies/index.ts";
import type { SparePoolHistory, Trace } from "../../sim/types.ts";
import { count } from "../format.ts";
import type { View } from "./lod.ts";
import { formatClock } from "./timeAxis.ts";
import { BUILT_IN_SPACE, GUTTER, type Layout, TRACK_IDS } from "./timelineLayout.ts";
import type { Palette } from "./timelinePalette.ts";
import type { HoverInfo, Track, TrackFrame, TrackInput, TrackPointer, TrackType } from "./timelineTrack.ts";

/** A step function as drawable points: value y[i] holds from pixel x[i] to x[i + 1]. */
export interface StepSeries {
  x: number[];
  y: number[];
}

/** Last index with t[i] ≤ at, or −1. */
export function stepIndex(t: ArrayLike<number>, at: number): number {
  let lo = 0;
  let hi = t.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((t[mid] as number) <= at) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/**
 * The step function (t, v) — v[i] from t[i] until t[i + 1], the last value until `horizon` —
 * over the view, in pixels. While its changes are fewer than the pixel columns, every change is a
 * point; beyond that, each column with changes gives its lowest, highest and last value at the
 * column's x, in that order, so a step line through them covers the column's whole range and
 * leaves it at the right value. Ends with a point at the right edge (the window's or the run's).
 */
export function stepSeries(
  t: ArrayLike<number>,
  v: ArrayLike<number>,
  horizon: number,
  view: View,
): StepSeries {
  const { t0, t1, left, width } = view;
  const k = width / (t1 - t0);
  const px = (s: number) => left + (s - t0) * k;
  const end = Math.min(t1, horizon);
  const out: StepSeries = { x: [], y: [] };
  if (t.length === 0 || end <= t0) return out;
  const first = Math.max(0, stepIndex(t, t0));
  let stop = first;
  while (stop < t.length && (t[stop] as number) <= end) stop++;
  out.x.push(left);
  out.y.push(v[first] as number);
  const dense = stop - first > width;
  let col = Number.NaN;
  let lo = 0;
  let hi = 0;
  let last = 0;
  const flush = () => {
    if (Number.isNaN(col)) return;
    out.x.push(col, col, col);
    out.y.push(lo, hi, last);
  };
  for (let i = first + 1; i < stop; i++) {
    const x = px(t[i] as number);
    const y = v[i] as number;
    if (!dense) {
      out.x.push(x);
      out.y.push(y);
      continue;
    }
    const c = Math.floor(x);
    if (c === col) {
      lo = Math.min(lo, y);
      hi = Math.max(hi, y);
      last = y;
      continue;
    }
    flush();
    col = c;
    lo = y;
    hi = y;
    last = y;
  }
  flush();
  out.x.push(px(end));
  out.y.push(v[stop - 1] as number);
  return out;
}

interface Pool {
  name: string;
  history: SparePoolHistory;
  colour: (p: Palette) => string;
}

/** Each selected policy's limited pool (its history is not empty), in display order. */
function poolsOf(trace: Trace): Pool[] {
  const out: Pool[] = [];
  for (const key of trace.policies) {
    const history = trace.recordings[key]?.spares;
    if (!history || history.t.length === 0) continue;
    const p = policyOf(key);
    out.push({ name: p.label, history, colour: (pal) => pal.policies[key] ?? pal.muted });
  }
  return out;
}

/** The chart is drawn only when a policy's pool is limited (its history is not empty). */
export function hasSpareChart(trace: Trace): boolean {
  return poolsOf(trace).length > 0;
}

/** The chart's band: its slot and the plot's span. */
export interface SpareBand {
  y: number;
  h: number;
  plotLeft: number;
  plotWidth: number;
}

export class SpareTrack {
  private readonly pools: Pool[];
  private readonly first: SparePoolHistory;
  readonly maxAvailable: number;
  readonly maxWaiting: number;

  constructor(
    trace: Trace,
    private readonly horizon: number,
  ) {
    this.pools = poolsOf(trace);
    this.first = this.pools[0]?.history ?? {
      t: new Float64Array(0),
      available: new Int32Array(0),
      waiting: new Int32Array(0),
    };
    let a = 1;
    let w = 0;
    // Indexed loops: a for…of over a 200,000-entry typed array cost the page ~100 ms here.
    for (const q of this.pools) {
      const { available, waiting } = q.history;
      for (let i = 0; i < available.length; i++) if ((available[i] as number) > a) a = available[i] as number;
      for (let i = 0; i < waiting.length; i++) if ((waiting[i] as number) > w) w = waiting[i] as number;
    }
    this.maxAvailable = a;
    this.maxWaiting = w;
  }

  /** Host counts onto the chart's pixels: available above zero, waiting requests below it. */
  y(L: SpareBand): ScaleLinear<number, number> {
    return scaleLinear()
      .domain([-this.maxWaiting, this.maxAvailable])
      .range([L.y + L.h, L.y]);
  }

  /** Draws the chart (its title and axis are drawLabels'); returns the points drawn. */
  draw(ctx: CanvasRenderingContext2D, L: SpareBand, view: View, p: Palette): number {
    this.drawGrid(ctx, L, p);
    let points = 0;
    for (let k = 0; k < this.pools.length; k++)
      points += this.drawPool(ctx, L, view, p, k, "waiting") + this.drawPool(ctx, L, view, p, k, "available");
    return points;
  }

  /** How many draw steps the pools take (drawPool's k). */
  get poolCount(): number {
    return this.pools.length;
  }

  /** The chart's background and grid lines at integer host counts (their labels are drawLabels'). */
  drawGrid(ctx: CanvasRenderingContext2D, L: SpareBand, p: Palette): void {
    const y = this.y(L);
    ctx.fillStyle = p.bg;
    ctx.fillRect(L.plotLeft, L.y - 2, L.plotWidth, L.h + 4);
    for (const v of y.ticks(4).filter(Number.isInteger)) {
      ctx.fillStyle = v === 0 ? p.muted : p.grid;
      ctx.fillRect(L.plotLeft, Math.round(y(v)), L.plotWidth, 1);
    }
  }

  /** Pool k's waiting requests and available hosts, clipped to the chart; returns the points drawn. */
  drawPool(
    ctx: CanvasRenderingContext2D,
    L: SpareBand,
    view: View,
    p: Palette,
    k: number,
    /** The waiting requests' area and line, or the available hosts' line: a draw step each. */
    part: "waiting" | "available",
  ): number {
    const q = this.pools[k];
    if (!q) return 0;
    const y = this.y(L);
    ctx.save();
    ctx.beginPath();
    ctx.rect(L.plotLeft, L.y - 2, L.plotWidth, L.h + 4);
    ctx.clip();
    let points = 0;
    const zero = y(0);
    {
      const colour = q.colour(p);
      if (part === "waiting" && this.maxWaiting > 0) {
        const w = stepSeries(q.history.t, q.history.waiting, this.horizon, view);
        ctx.beginPath();
        area<number>()
          .x((i) => w.x[i] as number)
          .y0(zero)
          .y1((i) => y(-(w.y[i] as number)))
          .curve(curveStepAfter)
          .context(ctx)(w.x.map((_, i) => i));
        ctx.globalAlpha = 0.22;
        ctx.fillStyle = colour;
        ctx.fill();
        ctx.globalAlpha = 1;
        ctx.beginPath();
        line<number>()
          .x((i) => w.x[i] as number)
          .y((i) => y(-(w.y[i] as number)))
          .curve(curveStepAfter)
          .context(ctx)(w.x.map((_, i) => i));
        ctx.strokeStyle = colour;
        ctx.lineWidth = 1;
        ctx.stroke();
        points += w.x.length;
      }
      if (part === "available") {
        const s = stepSeries(q.history.t, q.history.available, this.horizon, view);
        ctx.beginPath();
        line<number>()
          .x((i) => s.x[i] as number)
          .y((i) => y(s.y[i] as number))
          .curve(curveStepAfter)
          .context(ctx)(s.x.map((_, i) => i));
        ctx.strokeStyle = colour;
        // The pools often agree (equal detection delays make equal requests): the first policy's
        // line is drawn wider, under the others, so all stay visible where they coincide.
        ctx.lineWidth = q.history === this.first ? 3.5 : 1.5;
        ctx.stroke();
        points += s.x.length;
      }
    }
    ctx.restore();
    return points;
  }

  /** The gutter: the chart's title and which side is which. */
  drawLabels(ctx: CanvasRenderingContext2D, L: SpareBand, p: Palette): void {
    const y = this.y(L);
    ctx.textAlign = "left";
    ctx.textBaseline = "middle";
    ctx.fillStyle = p.text;
    ctx.font = "600 12px system-ui, sans-serif";
    // A phone's narrow gutter gets the short title, leaving room for the key.
    ctx.fillText(L.plotLeft < GUTTER ? "Spare hosts" : "Spare hosts (one pool per policy)", 4, L.y - 14);
    ctx.font = "10px system-ui, sans-serif";
    ctx.fillStyle = p.muted;
    const zero = y(0);
    ctx.textAlign = "right";
    for (const v of y.ticks(4).filter(Number.isInteger))
      ctx.fillText(count(Math.abs(v)), L.plotLeft - 6, Math.round(y(v)) + 0.5);
    ctx.textAlign = "left";
    ctx.fillText("available", 4, (L.y + zero) / 2);
    if (this.maxWaiting > 0) ctx.fillText("waiting", 4, (zero + L.y + L.h) / 2);
    // A key on the right of the title: each policy's colour.
    ctx.font = "11px system-ui, sans-serif";
    ctx.textAlign = "right";
    let x = L.plotLeft + L.plotWidth;
    for (const q of [...this.pools].reverse()) {
      const w = ctx.measureText(q.name).width;
      ctx.fillStyle = p.muted;
      ctx.fillText(q.name, x, L.y - 14);
      ctx.fillStyle = q.colour(p);
      ctx.fillRect(x - w - 18, L.y - 15, 14, 3);
      x -= w + 30;
    }
  }

  /** The pools' values at time t. */
  hover(t: number): HoverInfo {
    const lines = this.pools.map((q) => {
      const i = Math.max(0, stepIndex(q.history.t, t));
      const a = q.history.available[i] as number;
      const w = q.history.waiting[i] as number;
      return `${q.name}: ${count(a)} spare host${a === 1 ? "" : "s"} available, ${count(w)} request${w === 1 ? "" : "s"} waiting`;
    });
    return { title: `Spare hosts at ${formatClock(t)}`, lines, failure: null };
  }
}

/** The spare-pool chart as a track (made only with a limited pool). */
class SpareChart implements Track {
  readonly id = TRACK_IDS.spares;
  /** Hover answers 2 px above and below the chart: its lines sit on its edges. */
  readonly hoverPad = 2;
  index: SpareTrack | null = null;

  constructor(private readonly run: TrackInput) {}

  space() {
    return BUILT_IN_SPACE.spares;
  }

  buildSteps() {
    return [
      () => {
        this.index = new SpareTrack(this.run.trace, this.run.horizon);
      },
    ];
  }

  private built(): SpareTrack {
    if (!this.index) throw new Error("the spare chart's build steps have not run");
    return this.index;
  }

  private band(L: Layout): SpareBand {
    const slot = L.slots[this.id];
    if (!slot) throw new Error(`the layout has no slot for "${this.id}"`);
    return { y: slot.y, h: slot.h, plotLeft: L.plotLeft, plotWidth: L.plotWidth };
  }

  /** The grid, then each pool's waiting requests and available hosts: a step each. */
  drawSteps(f: TrackFrame) {
    const spares = this.built();
    const { ctx, view, palette: p } = f;
    const L = this.band(f.layout);
    const steps = [
      () => {
        spares.drawGrid(ctx, L, p);
        return 0;
      },
    ];
    for (let k = 0; k < spares.poolCount; k++)
      for (const part of ["waiting", "available"] as const)
        steps.push(() => spares.drawPool(ctx, L, view, p, k, part));
    return steps;
  }

  drawLabels(f: TrackFrame) {
    this.built().drawLabels(f.ctx, this.band(f.layout), f.palette);
  }

  hover(p: TrackPointer) {
    return this.built().hover(p.t);
  }

  describe(L: Layout) {
    const B = this.band(L);
    return { spareChart: `${B.y},${B.h}` };
  }

  summary() {
    return "a chart of each policy's spare hosts";
  }
}

export const spareTrack: TrackType = {
  id: TRACK_IDS.spares,
  create: (run) => (hasSpareChart(run.trace) ? new SpareChart(run) : null),
};
