/**
 * Slow episodes (docs/model.md §6) as a track of their own: how many hosts are slow at once, as a
 * bar per pixel column (the most in that column), and each eviction (a host still slow
 * `evictAfterMinutes` into its episode, dropped: a failure found at once) as a cross at its time.
 * Hover names the episodes under the pointer: host, replica, slowdown, span, and whether it ended
 * in an eviction. Made only when the run has episodes. The episodes are the engine's
 * (Trace.slow), never re-drawn here; their hosts' replicas on the lanes are slowHostsTrack.ts's.
 */
import { Layout as HostLayout } from "../../sim/failures/failureTrace.ts";
import type { Scenario } from "../../sim/scenario/index.ts";
import { evictionsIn, slowCount } from "../../sim/slow/slowCount.ts";
import type { SlowEpisodes } from "../../sim/slow/slowTypes.ts";
import { lowerBound } from "../../sim/sorted.ts";
import type { Trace } from "../../sim/types.ts";
import { count, duration } from "../format.ts";
import type { View } from "./lod.ts";
import { stepIndex } from "./spareTrack.ts";
import { formatClock } from "./timeAxis.ts";
import { type Layout, TITLE_GAP } from "./timelineLayout.ts";
import type { Palette } from "./timelinePalette.ts";
import type { TimeScale } from "./timelineScale.ts";
import type { HoverInfo, Track, TrackFrame, TrackInput, TrackPointer, TrackType } from "./timelineTrack.ts";

/** The track's band: room for a few steps of the count, and a title above it. */
export const SLOW_H = 30;
/** Episodes named in one tooltip (the rest are counted). */
const MAX_NAMED = 3;

/** Whether the run has slow episodes to draw. */
export function hasSlowEpisodes(trace: Pick<Trace, "slow">): boolean {
  return (trace.slow?.count ?? 0) > 0;
}

/** "host 1,234 (replica 5)": where an episode was. */
export function episodeWhere(ep: SlowEpisodes, e: number, hosts: HostLayout): string {
  const h = ep.host[e] as number;
  return `host ${count(h)} (replica ${count(hosts.replicaOf(h))})`;
}

/** One episode in words: where, how slow, its span, and how it ended. */
export function episodeLine(ep: SlowEpisodes, e: number, hosts: HostLayout, horizon: number): string {
  const a = ep.start[e] as number;
  const b = ep.end[e] as number;
  const ended =
    ep.evicted[e] === 1 && b < horizon
      ? `; evicted at ${formatClock(b)}`
      : b >= horizon
        ? "; slow past the run's end"
        : "";
  return `${episodeWhere(ep, e, hosts)}: ${ep.factor}× slower, ${formatClock(a)} → ${formatClock(Math.min(b, horizon))} (${duration(b - a)})${ended}`;
}

/** The longest episode, seconds: how far before t an episode covering t may start. */
export function longestEpisode(ep: SlowEpisodes): number {
  let m = 0;
  for (let e = 0; e < ep.count; e++) m = Math.max(m, (ep.end[e] as number) - (ep.start[e] as number));
  return m;
}

/** The episodes covering t (episodes are in start order; `longest`: longestEpisode's). */
export function episodesAt(ep: SlowEpisodes, longest: number, t: number): number[] {
  const out: number[] = [];
  const starts = ep.start.subarray(0, ep.count);
  for (let e = lowerBound(starts, t - longest); e < ep.count && (ep.start[e] as number) <= t; e++)
    if ((ep.end[e] as number) > t) out.push(e);
  return out;
}

/** An eviction cross, centred at (x, y). */
function cross(ctx: CanvasRenderingContext2D, x: number, y: number, r: number) {
  ctx.moveTo(x - r, y - r);
  ctx.lineTo(x + r, y + r);
  ctx.moveTo(x + r, y - r);
  ctx.lineTo(x - r, y + r);
}

export class SlowIndex {
  readonly steps: { t: Float64Array; n: Int32Array; max: number };
  readonly longest: number;
  readonly evictions: Int32Array;
  private readonly evictedAt: Float64Array;
  readonly hosts: HostLayout;

  constructor(
    readonly ep: SlowEpisodes,
    scenario: Scenario,
    private readonly horizon: number,
  ) {
    this.steps = slowCount(ep, horizon);
    this.longest = longestEpisode(ep);
    this.evictions = evictionsIn(ep, horizon);
    this.evictedAt = Float64Array.from(this.evictions, (e) => ep.end[e] as number);
    this.hosts = new HostLayout(scenario);
  }

  /**
   * The count as one bar per pixel column, the most hosts slow in that column, neighbouring
   * columns of one height merged; returns the rectangles issued. Reads only the steps in view.
   */
  drawCount(
    ctx: CanvasRenderingContext2D,
    y: number,
    h: number,
    view: View,
    x: TimeScale,
    p: Palette,
  ): number {
    const { t, n, max } = this.steps;
    if (max === 0) return 0;
    const dt = (view.t1 - view.t0) / view.width;
    let i = Math.max(0, stepIndex(t, view.t0));
    let issued = 0;
    let runFrom = -1;
    let runValue = 0;
    // Where any host is slow, the band is tinted as the lanes' shade is; the bar counts them.
    const flush = (to: number) => {
      if (runFrom < 0 || runValue === 0) return;
      const bh = Math.max(3, (runValue / max) * h);
      ctx.fillStyle = p.slowShade;
      ctx.fillRect(view.left + runFrom, y, to - runFrom, h - bh);
      ctx.fillStyle = p.slow;
      ctx.fillRect(view.left + runFrom, y + h - bh, to - runFrom, bh);
      issued += 2;
    };
    const last = Math.min(view.width, Math.ceil(x(this.horizon) - view.left));
    for (let c = 0; c < last; c++) {
      const c1 = view.t0 + (c + 1) * dt;
      let most = n[i] as number;
      while (i + 1 < t.length && (t[i + 1] as number) < c1) {
        i++;
        if ((n[i] as number) > most) most = n[i] as number;
      }
      if (most !== runValue) {
        flush(c);
        runFrom = c;
        runValue = most;
      }
    }
    flush(last);
    return issued;
  }

  /** One cross per pixel column holding an eviction, along the band's top; returns the crosses drawn. */
  drawEvictions(ctx: CanvasRenderingContext2D, y: number, view: View, x: TimeScale, p: Palette): number {
    const at = this.evictedAt;
    ctx.strokeStyle = p.down;
    ctx.lineWidth = 2;
    ctx.beginPath();
    let drawn = 0;
    let lastCol = Number.NEGATIVE_INFINITY;
    for (let k = lowerBound(at, view.t0); k < at.length && (at[k] as number) <= view.t1; k++) {
      const col = Math.round(x(at[k] as number));
      if (col === lastCol) continue;
      lastCol = col;
      cross(ctx, col + 0.5, y + 5, 4);
      drawn++;
    }
    ctx.stroke();
    return drawn;
  }

  /** The episodes under the pointer and the eviction within tol of t, in words. */
  hover(t: number, tol: number): HoverInfo {
    const { ep, hosts, horizon } = this;
    const under = episodesAt(ep, this.longest, t);
    const lines = under.slice(0, MAX_NAMED).map((e) => episodeLine(ep, e, hosts, horizon));
    if (under.length > MAX_NAMED) lines.push(`and ${count(under.length - MAX_NAMED)} more slow hosts`);
    const at = this.evictedAt;
    let near = -1;
    let best = tol;
    for (let k = lowerBound(at, t - tol); k < at.length && (at[k] as number) <= t + tol; k++) {
      const d = Math.abs((at[k] as number) - t);
      if (d <= best) {
        best = d;
        near = this.evictions[k] as number;
      }
    }
    if (near >= 0)
      lines.push(
        `Eviction at ${formatClock(ep.end[near] as number)}: ${episodeWhere(ep, near, hosts)} still slow after ${duration((ep.end[near] as number) - (ep.start[near] as number))}, dropped (a host failure found at once)`,
      );
    const title =
      under.length === 1
        ? `Slow episode at ${formatClock(t)}`
        : under.length > 1
          ? `${count(under.length)} slow episodes at ${formatClock(t)}`
          : `No host slow at ${formatClock(t)}`;
    if (lines.length === 0) lines.push("every host at full speed");
    return { title, lines, failure: null };
  }
}

/** The slow-episode track: made only when the run has episodes. */
class SlowHostsChart implements Track {
  readonly id = "slow";
  index: SlowIndex | null = null;

  constructor(private readonly run: TrackInput & { trace: { slow: SlowEpisodes } }) {}

  space() {
    return { height: SLOW_H, gapAbove: TITLE_GAP };
  }

  buildSteps() {
    return [
      () => {
        this.index = new SlowIndex(this.run.trace.slow, this.run.scenario, this.run.horizon);
      },
    ];
  }

  private built(): SlowIndex {
    if (!this.index) throw new Error("the slow track's build steps have not run");
    return this.index;
  }

  private slot(L: Layout) {
    const s = L.slots[this.id];
    if (!s) throw new Error(`the layout has no slot for "${this.id}"`);
    return s;
  }

  background({ ctx, layout: L, palette: p, x }: TrackFrame) {
    const s = this.slot(L);
    const x0 = Math.max(L.plotLeft, x(0));
    const x1 = Math.min(L.plotLeft + L.plotWidth, x(this.run.horizon));
    ctx.fillStyle = p.grid;
    ctx.fillRect(x0, s.y + s.h - 1, Math.max(0, x1 - x0), 1);
  }

  drawSteps({ ctx, layout: L, view, x, palette: p }: TrackFrame) {
    const idx = this.built();
    const s = this.slot(L);
    return [() => idx.drawCount(ctx, s.y, s.h, view, x, p) + idx.drawEvictions(ctx, s.y, view, x, p)];
  }

  drawLabels({ ctx, layout: L, palette: p }: TrackFrame) {
    const s = this.slot(L);
    const idx = this.built();
    ctx.textAlign = "left";
    ctx.textBaseline = "middle";
    ctx.fillStyle = p.text;
    ctx.font = "600 12px system-ui, sans-serif";
    ctx.fillText("Slow hosts", 4, s.y - 9);
    ctx.textAlign = "right";
    ctx.font = "10px system-ui, sans-serif";
    ctx.fillStyle = p.muted;
    ctx.fillText(`${count(idx.steps.max)} at most`, L.plotLeft - 8, s.y + 6);
    ctx.fillText("0", L.plotLeft - 8, s.y + s.h - 4);
  }

  hover(p: TrackPointer) {
    return this.built().hover(p.t, p.tol);
  }

  describe(L: Layout) {
    const s = this.slot(L);
    const idx = this.built();
    return {
      slowTrack: `${s.y},${s.h}`,
      slowEpisodes: String(idx.ep.count),
      slowEvictions: String(idx.evictions.length),
    };
  }

  summary() {
    const { trace, horizon } = this.run;
    return `${count(trace.slow.count)} slow episodes (${count(evictionsIn(trace.slow, horizon).length)} evictions)`;
  }
}

export const slowTrack: TrackType = {
  id: "slow",
  create: (run) => {
    const slow = run.trace.slow;
    return slow && slow.count > 0 ? new SlowHostsChart({ ...run, trace: { ...run.trace, slow } }) : null;
  },
};
