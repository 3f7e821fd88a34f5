/**
 * Draws the cluster timeline on a canvas: the synchronous job's lane on top, then one lane per
 * FT-HSDP replica (or per group of replicas when there are more lanes than pixels allow), the
 * failures as markers, a time axis. Everything visible is found by binary search and reduced to at
 * most one mark per pixel column per lane (lod.ts), so a frame costs what is on screen, not what
 * was simulated. Also answers "what is under the pointer" for the tooltip.
 */
import type { Scenario } from "../../sim/scenario.ts";
import { derived } from "../../sim/scenario.ts";
import { FtPhase, SyncState, type Trace } from "../../sim/types.ts";
import { duration } from "../format.ts";
import { buildLaneIndex, type LaneIndex, laneRuns, Runs, singleLane, type View } from "./lod.ts";
import { formatClock, formatTick, timeTicks } from "./timeAxis.ts";

export const GUTTER = 128;
const AXIS_H = 24;
const SYNC_H = 26;
const GAP = 22;
const MIN_LANE_H = 3;
const LANE_H = 18;
const FT_MAX_H = 320;
const FT_MIN_H = 72;
const RIGHT_PAD = 8;

/** Colours, read from the theme's CSS variables so the canvas follows light and dark. */
export interface Palette {
  bg: string;
  text: string;
  muted: string;
  grid: string;
  accent: string;
  training: string;
  stalled: string;
  down: string;
  catchUp: string;
  rejoin: string;
  recovering: string;
  checkpoint: string;
  rolledBack: string;
  hang: string;
}

export function readPalette(el: Element): Palette {
  const cs = getComputedStyle(el);
  const v = (name: string, fallback: string) => cs.getPropertyValue(name).trim() || fallback;
  return {
    bg: v("--panel", "#fff"),
    text: v("--text", "#111"),
    muted: v("--muted", "#666"),
    grid: v("--border", "#ddd"),
    accent: v("--accent", "#2f6fde"),
    training: v("--st-training", "#8fd1a8"),
    stalled: v("--st-stalled", "#f2c14e"),
    down: v("--st-down", "#d1495b"),
    catchUp: v("--st-catchup", "#6c8ebf"),
    rejoin: v("--st-rejoin", "#9b6bd6"),
    recovering: v("--st-recovering", "#d1495b"),
    checkpoint: v("--st-checkpoint", "#6c8ebf"),
    rolledBack: v("--st-rolledback", "#7a7a7a"),
    hang: v("--st-rejoin", "#9b6bd6"),
  };
}

/** Kinds double as draw order: a larger kind is drawn later and wins a shared pixel column. */
const SYNC_KIND: Record<number, number> = {
  [SyncState.rolledBack]: 1,
  [SyncState.checkpointing]: 2,
  [SyncState.recovering]: 3,
};
const FT_KIND: Record<number, number> = {
  [FtPhase.rejoin]: 2,
  [FtPhase.catchUp]: 3,
  [FtPhase.restart]: 4,
  [FtPhase.detect]: 5,
};

const SYNC_STATE_LABEL: Record<number, string> = {
  [SyncState.recovering]: "recovering (detect + restart): the whole job is stopped",
  [SyncState.checkpointing]: "writing a checkpoint (blocking)",
  [SyncState.rolledBack]: "rolled back: trained, then lost to a failure",
};
const FT_PHASE_LABEL: Record<number, string> = {
  [FtPhase.detect]: "down: failure being detected (everyone waits)",
  [FtPhase.restart]: "down: restarting (the others train)",
  [FtPhase.catchUp]: "catching up from a healthy peer",
  [FtPhase.rejoin]: "rejoining the ring (everyone waits)",
};

export interface Layout {
  width: number;
  height: number;
  plotLeft: number;
  plotWidth: number;
  syncY: number;
  ftY: number;
  ftH: number;
  lanes: number;
  /** Replicas per lane (1 unless there are too many to give each a lane). */
  group: number;
  laneH: number;
}

export function computeLayout(width: number, replicas: number): Layout {
  const ftH = Math.max(FT_MIN_H, Math.min(FT_MAX_H, replicas * LANE_H));
  const maxLanes = Math.max(1, Math.floor(ftH / MIN_LANE_H));
  const group = Math.ceil(replicas / Math.min(replicas, maxLanes));
  const lanes = Math.ceil(replicas / group);
  const syncY = AXIS_H;
  const ftY = syncY + SYNC_H + GAP;
  return {
    width,
    height: ftY + ftH + 4,
    plotLeft: GUTTER,
    plotWidth: Math.max(10, width - GUTTER - RIGHT_PAD),
    syncY,
    ftY,
    ftH,
    lanes,
    group,
    laneH: ftH / lanes,
  };
}

export interface HoverInfo {
  title: string;
  lines: string[];
  /** The failure under the pointer, if any. */
  failure: number | null;
}

export interface DrawStats {
  /** Rectangles issued this frame (after level-of-detail merging). */
  rects: number;
}

export class TimelineRenderer {
  private layout: Layout;
  private readonly horizon: number;
  private readonly R: number;
  private ftIdx!: LaneIndex;
  private failIdx!: LaneIndex;
  private readonly syncIdx: LaneIndex;
  private readonly stallIdx: LaneIndex;
  private readonly syncFailIdx: LaneIndex;
  private readonly runs = new Runs();
  private pattern: CanvasPattern | null = null;
  private patternFor = "";

  constructor(
    scenario: Scenario,
    private readonly trace: Trace,
    width: number,
  ) {
    this.horizon = derived(scenario).horizonSeconds;
    this.R = scenario.cluster.replicas;
    this.syncIdx = singleLane(trace.sync.start, trace.sync.end);
    this.stallIdx = singleLane(trace.ftStalls.start, trace.ftStalls.end);
    this.syncFailIdx = singleLane(trace.failures.time, trace.failures.time);
    this.layout = computeLayout(width, this.R);
    this.indexLanes();
  }

  get currentLayout(): Layout {
    return this.layout;
  }

  get horizonSeconds(): number {
    return this.horizon;
  }

  /** Re-fit to a new width; lanes are regrouped only if their number changes. */
  resize(width: number): void {
    const next = computeLayout(width, this.R);
    const regroup = next.group !== this.layout.group;
    this.layout = next;
    if (regroup) this.indexLanes();
  }

  private indexLanes(): void {
    const { ft, failures } = this.trace;
    const g = this.layout.group;
    const lanes = this.layout.lanes;
    this.ftIdx = buildLaneIndex(
      ft.start.length,
      lanes,
      (i) => Math.floor((ft.replica[i] as number) / g),
      ft.start,
      ft.end,
    );
    this.failIdx = buildLaneIndex(
      failures.time.length,
      lanes,
      (i) => Math.floor((failures.replica[i] as number) / g),
      failures.time,
      failures.time,
    );
  }

  laneLabel(lane: number): string {
    const g = this.layout.group;
    if (g === 1) return `Replica ${lane}`;
    const a = lane * g;
    return `Replicas ${a}–${Math.min(this.R, a + g) - 1}`;
  }

  private rolledBackPattern(ctx: CanvasRenderingContext2D, p: Palette): CanvasPattern | string {
    const key = p.rolledBack + p.training;
    if (!this.pattern || this.patternFor !== key) {
      const tile = document.createElement("canvas");
      tile.width = 6;
      tile.height = 6;
      const t = tile.getContext("2d");
      if (!t) return p.rolledBack;
      t.fillStyle = p.training;
      t.fillRect(0, 0, 6, 6);
      t.strokeStyle = p.rolledBack;
      t.lineWidth = 2;
      t.beginPath();
      t.moveTo(-1, 7);
      t.lineTo(7, -1);
      t.moveTo(-1, 1);
      t.lineTo(1, -1);
      t.moveTo(5, 7);
      t.lineTo(7, 5);
      t.stroke();
      this.pattern = ctx.createPattern(tile, "repeat");
      this.patternFor = key;
    }
    return this.pattern ?? p.rolledBack;
  }

  private fillRuns(
    ctx: CanvasRenderingContext2D,
    y: number,
    h: number,
    styles: Record<number, string | CanvasPattern>,
  ): number {
    const r = this.runs;
    const kinds = Object.keys(styles)
      .map(Number)
      .sort((a, b) => a - b);
    let issued = 0;
    for (const k of kinds) {
      ctx.fillStyle = styles[k] as string | CanvasPattern;
      // Neighbouring marks of one kind and (quantised) strength become one rectangle.
      let a0 = 0;
      let a1 = -1;
      let alpha = -1;
      const flush = () => {
        if (a1 <= a0) return;
        ctx.globalAlpha = alpha;
        ctx.fillRect(a0, y, a1 - a0, h);
        issued++;
      };
      for (let i = 0; i < r.n; i++) {
        if (r.kind[i] !== k) continue;
        // A merged column is painted as strongly as its intervals cover it.
        const a = Math.round((0.12 + 0.88 * (r.cover[i] as number)) * 16) / 16;
        const x0 = r.x0[i] as number;
        if (a === alpha && x0 <= a1 + 0.01) {
          a1 = Math.max(a1, r.x1[i] as number);
          continue;
        }
        flush();
        a0 = x0;
        a1 = r.x1[i] as number;
        alpha = a;
      }
      flush();
    }
    ctx.globalAlpha = 1;
    return issued;
  }

  private drawMarkers(ctx: CanvasRenderingContext2D, y: number, h: number, p: Palette): void {
    const r = this.runs;
    // Dense failures (zoomed far out) become short ticks along the lane's top edge, not a carpet.
    const dense = r.n > this.layout.plotWidth / 14;
    const size = dense ? 0 : Math.min(7, h - 1);
    // One path per class: a single fill call however many markers are visible.
    for (const hang of [false, true]) {
      ctx.fillStyle = hang ? p.hang : p.text;
      ctx.globalAlpha = dense ? 0.55 : 1;
      ctx.beginPath();
      let tickStart = 0;
      let tickEnd = 0;
      for (let i = 0; i < r.n; i++) {
        if ((r.kind[i] === 2) !== hang) continue;
        const x = Math.round(r.x0[i] as number) + 0.5;
        if (size < 4) {
          // Ticks in neighbouring columns join into one rectangle.
          if (x - 0.5 === tickEnd) tickEnd++;
          else {
            if (tickEnd > tickStart) ctx.rect(tickStart, y, tickEnd - tickStart, Math.min(h, 4));
            tickStart = x - 0.5;
            tickEnd = x + 0.5;
          }
        } else if (hang) {
          // A diamond: hangs are found by a watchdog, not by the process dying.
          ctx.moveTo(x, y);
          ctx.lineTo(x + size / 2, y + size / 2);
          ctx.lineTo(x, y + size);
          ctx.lineTo(x - size / 2, y + size / 2);
          ctx.closePath();
        } else {
          ctx.moveTo(x - size / 2, y);
          ctx.lineTo(x + size / 2, y);
          ctx.lineTo(x, y + size);
          ctx.closePath();
        }
      }
      if (tickEnd > tickStart) ctx.rect(tickStart, y, tickEnd - tickStart, Math.min(h, 4));
      ctx.fill();
    }
    ctx.globalAlpha = 1;
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
    const { trace } = this;
    const view: View = { t0, t1, left: L.plotLeft, width: L.plotWidth };
    const xOf = (t: number) => L.plotLeft + ((t - t0) / (t1 - t0)) * L.plotWidth;
    let rects = 0;
    ctx.fillStyle = p.bg;
    ctx.fillRect(0, 0, L.width, L.height);

    // Axis and grid.
    const { step, ticks } = timeTicks(t0, t1, Math.max(2, Math.floor(L.plotWidth / 110)));
    ctx.font = "11px system-ui, sans-serif";
    ctx.textBaseline = "middle";
    ctx.textAlign = "center";
    for (const t of ticks) {
      const x = Math.round(xOf(t)) + 0.5;
      ctx.fillStyle = p.grid;
      ctx.fillRect(x - 0.5, AXIS_H - 5, 1, L.height - AXIS_H + 5);
      ctx.fillStyle = p.muted;
      ctx.fillText(formatTick(t, step), Math.min(Math.max(x, L.plotLeft + 30), L.width - 34), AXIS_H / 2 - 1);
    }

    // Both jobs train unless told otherwise: the background of every lane is "training".
    const x0 = Math.max(L.plotLeft, xOf(0));
    const x1 = Math.min(L.plotLeft + L.plotWidth, xOf(this.horizon));
    ctx.fillStyle = p.training;
    ctx.fillRect(x0, L.syncY, x1 - x0, SYNC_H);
    ctx.fillRect(x0, L.ftY, x1 - x0, L.ftH);

    // Synchronous job.
    this.runs.clear();
    laneRuns(
      this.syncIdx,
      0,
      trace.sync.start,
      trace.sync.end,
      (i) => SYNC_KIND[trace.sync.state[i] as number] ?? 0,
      view,
      this.runs,
    );
    rects += this.fillRuns(ctx, L.syncY, SYNC_H, {
      1: this.rolledBackPattern(ctx, p),
      2: p.checkpoint,
      3: p.recovering,
    });
    this.runs.clear();
    laneRuns(
      this.syncFailIdx,
      0,
      trace.failures.time,
      trace.failures.time,
      (i) => (trace.failures.hang[i] ? 2 : 1),
      view,
      this.runs,
    );
    this.drawMarkers(ctx, L.syncY, SYNC_H, p);
    rects += this.runs.n;

    // FT-HSDP: global stalls span every lane; each lane's own recovery is drawn over them.
    this.runs.clear();
    laneRuns(this.stallIdx, 0, trace.ftStalls.start, trace.ftStalls.end, () => 1, view, this.runs);
    rects += this.fillRuns(ctx, L.ftY, L.ftH, { 1: p.stalled });
    const ownStyles = { 2: p.rejoin, 3: p.catchUp, 4: p.down, 5: p.down };
    const sep = L.laneH >= 6 ? 1 : 0;
    for (let lane = 0; lane < L.lanes; lane++) {
      const y = L.ftY + lane * L.laneH;
      this.runs.clear();
      laneRuns(
        this.ftIdx,
        lane,
        trace.ft.start,
        trace.ft.end,
        (i) => FT_KIND[trace.ft.phase[i] as number] ?? 0,
        view,
        this.runs,
      );
      rects += this.fillRuns(ctx, y, L.laneH - sep, ownStyles);
      this.runs.clear();
      laneRuns(
        this.failIdx,
        lane,
        trace.failures.time,
        trace.failures.time,
        (i) => (trace.failures.hang[i] ? 2 : 1),
        view,
        this.runs,
      );
      this.drawMarkers(ctx, y, L.laneH - sep, p);
      rects += this.runs.n;
      if (sep) {
        ctx.fillStyle = p.bg;
        ctx.fillRect(L.plotLeft, y + L.laneH - 1, L.plotWidth, 1);
      }
    }

    if (selected !== null && selected < trace.failures.time.length) {
      const x = Math.round(xOf(trace.failures.time[selected] as number)) + 0.5;
      if (x >= L.plotLeft && x <= L.plotLeft + L.plotWidth) {
        ctx.fillStyle = p.accent;
        ctx.fillRect(x - 1, AXIS_H - 4, 2, L.height - AXIS_H + 4);
      }
    }

    this.drawLabels(ctx, p);
    return { rects };
  }

  private drawLabels(ctx: CanvasRenderingContext2D, p: Palette): void {
    const L = this.layout;
    ctx.fillStyle = p.bg;
    ctx.fillRect(0, AXIS_H, L.plotLeft - 2, L.height - AXIS_H);
    ctx.textAlign = "right";
    ctx.textBaseline = "middle";
    ctx.fillStyle = p.text;
    ctx.font = "600 12px system-ui, sans-serif";
    ctx.fillText("Synchronous job", L.plotLeft - 8, L.syncY + SYNC_H / 2);
    ctx.textAlign = "left";
    ctx.fillText(`FT-HSDP: ${this.R.toLocaleString("en-US")} replicas`, 4, L.ftY - 9);
    ctx.textAlign = "right";
    // No text under 5 px: with thin lanes, label only every n-th one.
    const size = Math.min(11, L.laneH - 2);
    const every = size >= 5 ? 1 : Math.ceil(12 / L.laneH);
    const font = Math.max(size, 9);
    ctx.font = `${font}px system-ui, sans-serif`;
    ctx.fillStyle = p.muted;
    for (let lane = 0; lane < L.lanes; lane += every) {
      const y = L.ftY + lane * L.laneH + (every === 1 ? L.laneH / 2 : font / 2);
      if (every > 1 && y + font / 2 > L.ftY + L.ftH) break;
      ctx.fillText(this.laneLabel(lane), L.plotLeft - 8, y);
    }
  }

  /** What lies under canvas point (x, y) in window [t0, t1]; null outside the lanes. */
  hover(x: number, y: number, t0: number, t1: number): HoverInfo | null {
    const L = this.layout;
    if (x < L.plotLeft || x > L.plotLeft + L.plotWidth) return null;
    const secPerPx = (t1 - t0) / L.plotWidth;
    const t = t0 + (x - L.plotLeft) * secPerPx;
    if (t < 0 || t > this.horizon) return null;
    const { trace } = this;
    const near = (idx: LaneIndex, lane: number) =>
      nearestFailure(idx, lane, trace.failures.time, t, 5 * secPerPx);
    if (y >= L.syncY && y < L.syncY + SYNC_H) {
      const i = containing(trace.sync.start, trace.sync.end, t);
      const state = i >= 0 ? SYNC_STATE_LABEL[trace.sync.state[i] as number] : "training";
      const lines = [
        i >= 0 ? spanText(trace.sync.start[i] as number, trace.sync.end[i] as number) : formatClock(t),
      ];
      const f = near(this.syncFailIdx, 0);
      if (f !== null) lines.push(...this.failureLines(f, "sync"));
      return { title: `Synchronous job — ${state}`, lines, failure: f };
    }
    if (y >= L.ftY && y < L.ftY + L.ftH) {
      const lane = Math.min(L.lanes - 1, Math.floor((y - L.ftY) / L.laneH));
      const own = this.ownInterval(lane, t);
      const stall = containing(trace.ftStalls.start, trace.ftStalls.end, t);
      let state: string;
      let lines: string[];
      if (own >= 0) {
        state = FT_PHASE_LABEL[trace.ft.phase[own] as number] ?? "recovering";
        const who = this.layout.group > 1 ? ` (replica ${trace.ft.replica[own]})` : "";
        lines = [spanText(trace.ft.start[own] as number, trace.ft.end[own] as number) + who];
      } else if (stall >= 0) {
        state = "stalled: healthy, waiting for another replica's recovery";
        lines = [spanText(trace.ftStalls.start[stall] as number, trace.ftStalls.end[stall] as number)];
      } else {
        state = "training";
        lines = [formatClock(t)];
      }
      const f = near(this.failIdx, lane);
      if (f !== null) lines.push(...this.failureLines(f, "ft"));
      return { title: `${this.laneLabel(lane)} — ${state}`, lines, failure: f };
    }
    return null;
  }

  /** The row of an own-recovery interval covering t in this lane (the most severe one), or −1. */
  private ownInterval(lane: number, t: number): number {
    const { ft } = this.trace;
    const idx = this.ftIdx;
    let best = -1;
    let bestKind = 0;
    const stop = idx.offsets[lane + 1] as number;
    for (let p = lowerBound(idx, lane, ft.start, t - (idx.maxDuration[lane] as number)); p < stop; p++) {
      const row = idx.rows[p] as number;
      if ((ft.start[row] as number) > t) break;
      if ((ft.end[row] as number) <= t) continue;
      const k = FT_KIND[ft.phase[row] as number] ?? 0;
      if (k > bestKind) {
        best = row;
        bestKind = k;
      }
    }
    return best;
  }

  private failureLines(i: number, policy: "sync" | "ft"): string[] {
    const f = this.trace.failures;
    const kind = f.hang[i] ? "hang (found by watchdog)" : "fail-stop";
    const head = `Failure #${i + 1} at ${formatClock(f.time[i] as number)}: ${kind} on host ${(f.host[i] as number).toLocaleString("en-US")}, replica ${f.replica[i]}; detected after ${duration(f.detectSeconds[i] as number)}`;
    const cost =
      policy === "sync"
        ? `Sync: stopped ${duration(f.syncStallSeconds[i] as number)}, lost ${duration(f.syncLostSeconds[i] as number)} of training`
        : `FT-HSDP: global stall ${duration(f.ftStallSeconds[i] as number)}`;
    return [head, cost];
  }
}

function lowerBound(idx: LaneIndex, lane: number, start: ArrayLike<number>, from: number): number {
  let lo = idx.offsets[lane] as number;
  let hi = idx.offsets[lane + 1] as number;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((start[idx.rows[mid] as number] as number) < from) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the interval of a sorted, disjoint list that contains t, or −1. */
export function containing(start: Float64Array, end: Float64Array, t: number): number {
  let lo = 0;
  let hi = start.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((start[mid] as number) <= t) lo = mid + 1;
    else hi = mid;
  }
  // Intervals may abut (a rollback ends where a recovery starts): look back a few.
  for (let i = lo - 1; i >= 0 && i >= lo - 4; i--)
    if ((end[i] as number) > t && (start[i] as number) <= t) return i;
  return -1;
}

function nearestFailure(
  idx: LaneIndex,
  lane: number,
  time: Float64Array,
  t: number,
  tol: number,
): number | null {
  let best: number | null = null;
  let bestD = tol;
  const stop = idx.offsets[lane + 1] as number;
  for (let p = lowerBound(idx, lane, time, t - tol); p < stop; p++) {
    const row = idx.rows[p] as number;
    const d = Math.abs((time[row] as number) - t);
    if ((time[row] as number) > t + tol) break;
    if (d <= bestD) {
      best = row;
      bestD = d;
    }
  }
  return best;
}

function spanText(a: number, b: number): string {
  return `${formatClock(a)} → ${formatClock(b)} (${duration(b - a)})`;
}
