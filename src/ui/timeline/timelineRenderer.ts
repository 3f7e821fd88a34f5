/**
 * Draws the cluster timeline on a canvas from whatever tracks it is given (timelineTrack.ts; by
 * default the registered ones, timelineTrackRegistry.ts: the axis, each selected policy's lanes
 * by its recording's kind, and the spare-pool chart with a limited pool), stacked by the layout (timelineLayout.ts), and
 * answers "what is under the pointer" by asking the track there. Every track finds what is
 * visible by binary search and reduces it to at most one mark per pixel column per lane (lod.ts),
 * so a frame costs what is on screen, not what was simulated. Time maps to pixels through one
 * scale (timelineScale.ts).
 */
import type { Scenario } from "../../sim/scenario/index.ts";
import { derived } from "../../sim/scenario/index.ts";
import type { Trace } from "../../sim/types.ts";
import type { Moment } from "../../state/traceAt.ts";
import { FtTrack } from "./ftTrack.ts";
import { JobTrack } from "./jobTrack.ts";
import { Runs, type View } from "./lod.ts";
import { RackTrack } from "./rackTrack.ts";
import { SpareTrack } from "./spareTrack.ts";
import { AXIS_H, type Layout, stackTracks } from "./timelineLayout.ts";
import { HatchPattern, type Palette } from "./timelinePalette.ts";
import { windowScale } from "./timelineScale.ts";
import type {
  HoverInfo,
  ReplayMarks,
  Track,
  TrackFrame,
  TrackInput,
  TrackPointer,
  TrackType,
} from "./timelineTrack.ts";
import { timelineTrackTypes } from "./timelineTrackRegistry.ts";

export interface DrawStats {
  /** Rectangles issued this frame (after level-of-detail merging). */
  rects: number;
}

/** The tracks of these types that have something to show in this run, in order (cheap: no indexes). */
export function tracksFor(
  scenario: Scenario,
  trace: Trace,
  types: readonly TrackType[] = timelineTrackTypes(),
): Track[] {
  const input: TrackInput = { scenario, trace, horizon: derived(scenario).horizonSeconds };
  const ids = new Set<string>();
  const tracks: Track[] = [];
  for (const type of types) {
    const made = type.create(input);
    if (!made) continue;
    for (const t of Array.isArray(made) ? made : [made as Track]) {
      if (ids.has(t.id)) throw new Error(`two timeline tracks have the id "${t.id}"`);
      ids.add(t.id);
      tracks.push(t);
    }
  }
  return tracks;
}

/** What the tracks say of themselves for the canvas's accessible name: ", with …" or "". */
export function tracksSummary(tracks: readonly Track[]): string {
  const out: string[] = [];
  for (const t of tracks) {
    const s = t.summary?.();
    if (s) out.push(s);
  }
  return out.length > 0 ? `, with ${out.join(", ")}` : "";
}

function layoutOf(width: number, tracks: readonly Track[]): Layout {
  return stackTracks(
    width,
    tracks.map((t) => ({ id: t.id, space: t.space() })),
  );
}

/**
 * A renderer built in steps, each one track's indexes or a part of them (tens of ms at most on
 * the largest runs, where the whole build was one task of ~200–300 ms): a caller runs them in
 * order, in separate tasks if it likes, then `renderer()` gives the renderer `new
 * TimelineRenderer` would.
 */
export function rendererBuildSteps(
  scenario: Scenario,
  trace: Trace,
  width: number,
  types: readonly TrackType[] = timelineTrackTypes(),
): { steps: (() => void)[]; renderer: () => TimelineRenderer } {
  const tracks = tracksFor(scenario, trace, types);
  const layout = layoutOf(width, tracks);
  return {
    steps: tracks.flatMap((t) => t.buildSteps(layout)),
    renderer: () => new TimelineRenderer(scenario, trace, width, { built: tracks }),
  };
}

/** The index of the first track whose index is a `kind` (the first policy's, for a policy's tracks; tests read them). */
function indexOf<T>(tracks: readonly Track[], kind: abstract new (...a: never[]) => T): T | null {
  for (const t of tracks as readonly { index?: unknown }[]) if (t.index instanceof kind) return t.index as T;
  return null;
}

export class TimelineRenderer {
  private layout: Layout;
  private readonly horizon: number;
  private readonly tracks: readonly Track[];
  private readonly runs = new Runs();
  private readonly hatch = new HatchPattern();

  constructor(
    scenario: Scenario,
    private readonly trace: Trace,
    width: number,
    /**
     * The tracks: already built for this trace and width (rendererBuildSteps), or built here from
     * these types (by default the registered ones).
     */
    from: { built: readonly Track[] } | { types: readonly TrackType[] } = { types: timelineTrackTypes() },
  ) {
    this.horizon = derived(scenario).horizonSeconds;
    this.tracks = "built" in from ? from.built : tracksFor(scenario, trace, from.types);
    this.layout = layoutOf(width, this.tracks);
    if (!("built" in from)) for (const t of this.tracks) for (const step of t.buildSteps(this.layout)) step();
  }

  get currentLayout(): Layout {
    return this.layout;
  }

  get horizonSeconds(): number {
    return this.horizon;
  }

  /** The tracks' ids, top to bottom. */
  get trackIds(): string[] {
    return this.tracks.map((t) => t.id);
  }

  /** The first replica-level policy's job lane's index; null when the run has none. */
  get job(): JobTrack | null {
    return indexOf(this.tracks, JobTrack);
  }

  /** The first replica-level policy's rack marks' index (a renderer without rack marks has none: an error). */
  get racks(): RackTrack {
    const r = indexOf(this.tracks, RackTrack);
    if (!r) throw new Error("this timeline has no rack marks");
    return r;
  }

  /** The spare chart's index; null without a limited pool. */
  get spares(): SpareTrack | null {
    return indexOf(this.tracks, SpareTrack);
  }

  /** The first replica-level policy's replica lanes' index. */
  get ft(): FtTrack | null {
    return indexOf(this.tracks, FtTrack);
  }

  /** Re-fit to a new width; lanes are regrouped only if their number changes. */
  resize(width: number): void {
    this.layout = layoutOf(width, this.tracks);
    for (const t of this.tracks) t.relayout?.(this.layout);
  }

  /** Data attributes for the canvas: where each track sits and what it holds. */
  describe(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const t of this.tracks) Object.assign(out, t.describe?.(this.layout));
    return out;
  }

  /** The replay's outlines at moment m in window [t0, t1], as each track says. */
  replayMarks(t0: number, t1: number, m: Moment): ReplayMarks {
    const r = { layout: this.layout, x: windowScale(this.layout, t0, t1), moment: m };
    const out: ReplayMarks = { boxes: [], dashed: [] };
    for (const t of this.tracks) {
      const marks = t.replay?.(r);
      if (!marks) continue;
      out.boxes.push(...marks.boxes);
      out.dashed.push(...marks.dashed);
    }
    return out;
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
   * is bounded: the backgrounds, or one track's step (a track, a few lanes, a spare pool).
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
    const f: TrackFrame = { ctx, layout: L, view, x, palette: p, runs: this.runs, hatch: this.hatch };
    const steps: (() => number)[] = [];
    steps.push(() => {
      ctx.fillStyle = p.bg;
      ctx.fillRect(0, 0, L.width, L.height);
      for (const t of this.tracks) t.background?.(f);
      return 0;
    });
    for (const t of this.tracks) steps.push(...t.drawSteps(f));
    steps.push(() => {
      const failures = this.trace.failures.time;
      if (selected !== null && selected < failures.length) {
        const px = Math.round(x(failures[selected] as number)) + 0.5;
        if (px >= L.plotLeft && px <= L.plotLeft + L.plotWidth) {
          ctx.fillStyle = p.accent;
          ctx.fillRect(px - 1, AXIS_H - 4, 2, L.height - AXIS_H + 4);
        }
      }
      // The gutter below the axis is the tracks' names' alone.
      ctx.fillStyle = p.bg;
      ctx.fillRect(0, AXIS_H, L.plotLeft - 2, L.height - AXIS_H);
      for (const t of this.tracks) t.drawLabels?.(f);
      return 0;
    });
    return steps;
  }

  /** What lies under canvas point (x, y) in window [t0, t1]; null outside the tracks. */
  hover(x: number, y: number, t0: number, t1: number): HoverInfo | null {
    const L = this.layout;
    const scale = windowScale(L, t0, t1);
    if (x < L.plotLeft || x > L.plotLeft + L.plotWidth) return null;
    const t = scale.invert(x);
    if (t < 0 || t > this.horizon) return null;
    // Five pixels either side, in seconds.
    const p: TrackPointer = { layout: L, x: scale, px: x, py: y, t, tol: scale.invert(x + 5) - t };
    let info: HoverInfo | null = null;
    for (const track of this.tracks) {
      const s = L.slots[track.id];
      const pad = track.hoverPad ?? 0;
      if (!track.hover || !s || y < s.y - pad || y >= s.y + s.h + pad) continue;
      info = track.hover(p, info);
    }
    return info;
  }
}
