/**
 * Rack marks on a replica-level policy's lanes (FT-HSDP's) (docs/model.md §3): a rack failure strikes every host of the
 * rack, and under striped placement those hosts serve several replicas. Each such event gets a
 * failure marker on every lane it struck and a connector joining them at its time, labelled with
 * the rack, so one event that took several replicas reads as one. Which replicas an event struck
 * is the engine's answer (struckReplicaRanges), never re-derived here.
 *
 * Bounded cost: markers go through the lanes' level of detail; connectors are one per visible
 * event while they are sparse, and one per pixel column (the union of the lanes struck there)
 * once they are dense, without labels.
 */

import { rackOf, struckReplicaRanges } from "../../sim/failures/failureTrace.ts";
import { lowerBound } from "../../sim/sorted.ts";
import { ScopeCode, type Trace } from "../../sim/types.ts";
import { count } from "../format.ts";
import {
  buildLaneIndex,
  LABEL_IN_LANE_PX,
  LANE_SEPARATOR_PX,
  type LaneIndex,
  laneRuns,
  type Runs,
  SPARSE_EVENT_PX,
  type View,
} from "./lod.ts";
import { OverReplicaLanes } from "./overReplicaLanes.ts";
import { formatClock } from "./timeAxis.ts";
import { datasetKey, type Layout, type ReplicaBand, rackMarksId } from "./timelineLayout.ts";
import { drawMarkers } from "./timelineMarks.ts";
import type { Palette } from "./timelinePalette.ts";
import type { HoverInfo, PolicyTrackType, TrackFrame, TrackPointer } from "./timelineTrack.ts";
import { failureKind } from "./timelineTracks.ts";

/** Failures that struck several replicas at once: rack scope with replicaCount > 1. */
export function rackEvents(trace: Trace): Int32Array {
  const f = trace.failures;
  const out: number[] = [];
  for (let i = 0; i < f.time.length; i++)
    if (f.scope[i] === ScopeCode.rack && (f.replicaCount[i] as number) > 1) out.push(i);
  return Int32Array.from(out);
}

/**
 * The lanes event i struck, as inclusive lane ranges in increasing order: the engine's replica
 * ranges mapped to lanes of `group` replicas (ranges that meet in one lane merge).
 */
export function struckLaneRanges(
  trace: Trace,
  i: number,
  replicas: number,
  group: number,
): [number, number][] {
  const f = trace.failures;
  const out: [number, number][] = [];
  for (const [a, b] of struckReplicaRanges(f.replica[i] as number, f.replicaCount[i] as number, replicas)) {
    const la = Math.floor(a / group);
    const lb = Math.floor(b / group);
    const last = out[out.length - 1];
    if (last && la <= last[1] + 1) last[1] = Math.max(last[1], lb);
    else out.push([la, lb]);
  }
  return out;
}

/** "Rack 3 (hosts 24–31)": the rack an event struck. */
export function rackName(trace: Trace, i: number, hostsPerRack: number): string {
  const host = trace.failures.host[i] as number;
  const n = trace.failures.hostCount[i] as number;
  return `Rack ${count(rackOf(host, hostsPerRack))} (hosts ${count(host)}–${count(host + n - 1)})`;
}

/** "0–3, 8–11": replica ranges in words. */
function rangesText(ranges: [number, number][]): string {
  return ranges.map(([a, b]) => (a === b ? count(a) : `${count(a)}–${count(b)}`)).join(", ");
}

export class RackTrack {
  /** Failure rows of the events, in time order, and their times. */
  readonly events: Int32Array;
  private readonly times: Float64Array;
  /** One row per (event, lane it struck other than its first replica's lane), for the markers. */
  private strikeFailure = new Int32Array(0);
  private strikeTime = new Float64Array(0);
  private strikes: LaneIndex | null = null;
  /** Each event's lane ranges under the current grouping. */
  private spans: [number, number][][] = [];
  private group = 0;

  constructor(
    private readonly trace: Trace,
    private readonly replicas: number,
    private readonly hostsPerRack: number,
    /** The layout to group lanes for at once; null leaves it to a later regroup (a build step of its own). */
    L: ReplicaBand | null,
  ) {
    this.events = rackEvents(trace);
    this.times = Float64Array.from(this.events, (i) => trace.failures.time[i] as number);
    if (L) this.regroup(L);
  }

  get count(): number {
    return this.events.length;
  }

  regroup(L: ReplicaBand): void {
    if (L.group === this.group || this.events.length === 0) return;
    this.group = L.group;
    const f = this.trace.failures;
    this.spans = Array.from(this.events, (i) => struckLaneRanges(this.trace, i, this.replicas, L.group));
    const rows: number[] = [];
    const lanes: number[] = [];
    this.events.forEach((i, e) => {
      const own = Math.floor((f.replica[i] as number) / L.group);
      for (const [a, b] of this.spans[e] ?? [])
        for (let l = a; l <= b; l++)
          if (l !== own) {
            rows.push(i);
            lanes.push(l);
          }
    });
    this.strikeFailure = Int32Array.from(rows);
    this.strikeTime = Float64Array.from(rows, (i) => f.time[i] as number);
    this.strikes = buildLaneIndex(
      rows.length,
      L.lanes,
      (k) => lanes[k] as number,
      this.strikeTime,
      this.strikeTime,
    );
  }

  /** The lane ranges event row i of the failure log struck (empty if it is not a rack event here). */
  lanesOf(failure: number): [number, number][] {
    const e = lowerBound(this.times, this.trace.failures.time[failure] as number);
    for (let k = e; k < this.events.length && this.times[k] === this.trace.failures.time[failure]; k++)
      if (this.events[k] === failure) return this.spans[k] ?? [];
    return [];
  }

  /** Draws the markers on the other struck lanes and the connectors; returns the marks issued. */
  draw(ctx: CanvasRenderingContext2D, L: ReplicaBand, view: View, runs: Runs, p: Palette): number {
    if (this.events.length === 0 || !this.strikes) return 0;
    let marks = 0;
    const sep = L.laneH >= LANE_SEPARATOR_PX ? 1 : 0;
    const kind = failureKind(this.trace);
    for (let lane = 0; lane < L.lanes; lane++) {
      runs.clear();
      laneRuns(
        this.strikes,
        lane,
        this.strikeTime,
        this.strikeTime,
        (k) => kind(this.strikeFailure[k] as number),
        view,
        runs,
      );
      drawMarkers(ctx, runs, L.y + lane * L.laneH, L.laneH - sep, L.plotWidth, p);
      marks += runs.n;
    }
    const { t0, t1, left, width } = view;
    const k = width / (t1 - t0);
    const from = lowerBound(this.times, t0);
    let to = from;
    while (to < this.times.length && (this.times[to] as number) <= t1) to++;
    if (to - from <= width / SPARSE_EVENT_PX)
      marks += this.drawSparse(ctx, L, p, from, to, (t) => left + (t - t0) * k);
    else marks += this.drawDense(ctx, L, p, from, to, (t) => left + (t - t0) * k);
    return marks;
  }

  /** Each event: a connector over its struck lanes (dotted across lanes it skipped) and its rack. */
  private drawSparse(
    ctx: CanvasRenderingContext2D,
    L: ReplicaBand,
    p: Palette,
    from: number,
    to: number,
    xOf: (t: number) => number,
  ): number {
    const top = (lane: number) => L.y + lane * L.laneH;
    const bottom = (lane: number) => L.y + (lane + 1) * L.laneH;
    ctx.font = "600 10px system-ui, sans-serif";
    ctx.textBaseline = "middle";
    ctx.textAlign = "left";
    for (let e = from; e < to; e++) {
      const spans = this.spans[e] ?? [];
      if (spans.length === 0) continue;
      const x = Math.round(xOf(this.times[e] as number));
      // A halo in the background colour, so the connector shows on every state's colour.
      ctx.fillStyle = p.bg;
      for (const [a, b] of spans) ctx.fillRect(x - 2, top(a), 4, bottom(b) - top(a));
      ctx.fillStyle = p.text;
      for (const [a, b] of spans) {
        ctx.fillRect(x - 1, top(a), 2, bottom(b) - top(a));
        // End caps: a bracket, so two neighbouring events do not read as one long line.
        ctx.fillRect(x - 3, top(a), 6, 1.5);
        ctx.fillRect(x - 3, bottom(b) - 1.5, 6, 1.5);
      }
      // Lanes between two struck runs were not struck: a dotted line says the runs are one event.
      for (let s = 1; s < spans.length; s++) {
        const y0 = bottom((spans[s - 1] as [number, number])[1]);
        const y1 = top((spans[s] as [number, number])[0]);
        for (let y = y0 + 2; y < y1 - 1; y += 4) ctx.fillRect(x - 0.5, y, 1, 2);
      }
    }
    // Labels after every connector, so no later connector crosses an earlier label.
    let labelEnd = Number.NEGATIVE_INFINITY;
    for (let e = from; e < to; e++) {
      const first = (this.spans[e] ?? [])[0];
      if (!first) continue;
      const x = Math.round(xOf(this.times[e] as number));
      // The rack's name beside the connector, in the first struck lane when it is tall enough,
      // else just above it; left out where it would overlap the previous label.
      const label = `rack ${count(rackOf(this.trace.failures.host[this.events[e] as number] as number, this.hostsPerRack))}`;
      const w = ctx.measureText(label).width + 6;
      const lx = Math.min(x + 3, L.plotLeft + L.plotWidth - w);
      if (lx > labelEnd && lx >= L.plotLeft) {
        const ly = L.laneH >= LABEL_IN_LANE_PX ? top(first[0]) + L.laneH / 2 : top(first[0]) - 6;
        ctx.fillStyle = p.bg;
        ctx.fillRect(lx, ly - 6, w, 12);
        ctx.fillStyle = p.text;
        ctx.fillText(label, lx + 3, ly);
        labelEnd = lx + w;
      }
    }
    return to - from;
  }

  /** Dense events: per pixel column, one faint line over the lanes struck there. */
  private drawDense(
    ctx: CanvasRenderingContext2D,
    L: ReplicaBand,
    p: Palette,
    from: number,
    to: number,
    xOf: (t: number) => number,
  ): number {
    ctx.fillStyle = p.text;
    // Faint: dense events would otherwise hide the lanes' states under them.
    ctx.globalAlpha = 0.22;
    ctx.beginPath();
    let col = Number.NaN;
    let lo = 0;
    let hi = 0;
    let issued = 0;
    const flush = () => {
      if (Number.isNaN(col)) return;
      ctx.rect(col, L.y + lo * L.laneH, 1, (hi - lo + 1) * L.laneH);
      issued++;
    };
    for (let e = from; e < to; e++) {
      const spans = this.spans[e] ?? [];
      if (spans.length === 0) continue;
      const c = Math.floor(xOf(this.times[e] as number));
      const a = (spans[0] as [number, number])[0];
      const b = (spans[spans.length - 1] as [number, number])[1];
      if (c === col) {
        lo = Math.min(lo, a);
        hi = Math.max(hi, b);
        continue;
      }
      flush();
      col = c;
      lo = a;
      hi = b;
    }
    flush();
    ctx.fill();
    ctx.globalAlpha = 1;
    return issued;
  }

  /**
   * Hover on lane `lane` at t (tolerance tol seconds): the rack event under the pointer — the one
   * already found (`found`), or one that struck this lane — and a line naming its rack and replicas.
   */
  hover(
    lane: number,
    t: number,
    tol: number,
    found: number | null,
  ): { failure: number; line: string } | null {
    let failure: number | null = null;
    if (found !== null && this.lanesOf(found).length > 0) failure = found;
    else if (this.strikes) {
      const idx = this.strikes;
      let best = tol;
      const stop = idx.offsets[lane + 1] as number;
      // The lane's rows are in time order: start at the first within tol of t.
      let p = idx.offsets[lane] as number;
      let hi = stop;
      while (p < hi) {
        const mid = (p + hi) >>> 1;
        if ((this.strikeTime[idx.rows[mid] as number] as number) < t - tol) p = mid + 1;
        else hi = mid;
      }
      for (; p < stop; p++) {
        const row = idx.rows[p] as number;
        if ((this.strikeTime[row] as number) > t + tol) break;
        const d = Math.abs((this.strikeTime[row] as number) - t);
        if (d <= best) {
          best = d;
          failure = this.strikeFailure[row] as number;
        }
      }
    }
    if (failure === null) return null;
    const f = this.trace.failures;
    const ranges = struckReplicaRanges(
      f.replica[failure] as number,
      f.replicaCount[failure] as number,
      this.replicas,
    );
    return {
      failure,
      line: `${rackName(this.trace, failure, this.hostsPerRack)} failed at ${formatClock(f.time[failure] as number)}: one event struck ${count(f.replicaCount[failure] as number)} replicas (${rangesText(ranges)})`,
    };
  }
}

/** Rack marks as a track: drawn over its policy's replica lanes' band, adding to what they say on hover. */
class RackMarks extends OverReplicaLanes {
  index: RackTrack | null = null;

  /** The events, then their lanes under the layout's grouping: a step each. */
  buildSteps(L: Layout) {
    const { scenario, trace } = this.run;
    return [
      () => {
        this.index = new RackTrack(trace, scenario.cluster.replicas, scenario.cluster.hostsPerRack, null);
      },
      () => this.index?.regroup(this.band(L)),
    ];
  }

  private built(): RackTrack {
    if (!this.index) throw new Error("the rack marks' build steps have not run");
    return this.index;
  }

  relayout(L: Layout) {
    this.built().regroup(this.band(L));
  }

  override drawSteps(f: TrackFrame) {
    const racks = this.built();
    const B = this.band(f.layout);
    return [() => racks.draw(f.ctx, B, f.view, f.runs, f.palette)];
  }

  /** A rack event that struck several replicas: say so, on every lane it struck. */
  hover(p: TrackPointer, below: HoverInfo | null) {
    const rack = this.built().hover(this.laneUnder(p), p.t, p.tol, below?.failure ?? null);
    if (!below || !rack) return below;
    return { ...below, lines: [...below.lines, rack.line], failure: rack.failure };
  }

  describe() {
    return { [datasetKey("rackMarks", this.lane.key)]: String(this.built().count) };
  }

  summary() {
    const racks = rackEvents(this.run.trace).length;
    return racks > 0 ? `${racks} rack failures marked across the replicas they struck` : null;
  }
}

export const rackTrack: PolicyTrackType<"replicas"> = {
  id: "rackMarks",
  kind: "replicas",
  create: (run, lane) => new RackMarks(rackMarksId(lane.key), run, lane),
};
