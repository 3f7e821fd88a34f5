/**
 * How a lane's level-of-detail runs (lod.ts) become canvas marks: interval runs as filled
 * rectangles, failures as markers. Shared by every track.
 */
import type { Trace } from "../../sim/types.ts";
import { type LaneIndex, LaneRunCursor, laneRunSteps, type Runs, type View } from "./lod.ts";
import type { Palette } from "./timelinePalette.ts";
import type { TrackFrame } from "./timelineTrack.ts";
import { failureKind } from "./timelineTracks.ts";

/** Fill the runs of each kind in draw order (a larger kind wins a shared column); returns rectangles issued. */
export function fillRuns(
  ctx: CanvasRenderingContext2D,
  r: Runs,
  y: number,
  h: number,
  styles: Record<number, string | CanvasPattern>,
): number {
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

/** Failure markers (kind 1 fail-stop, kind 2 hang) along a lane's top edge. */
export function drawMarkers(
  ctx: CanvasRenderingContext2D,
  r: Runs,
  y: number,
  h: number,
  plotWidth: number,
  p: Palette,
): void {
  // Dense failures (zoomed far out) become short ticks along the lane's top edge, not a carpet.
  const dense = r.n > plotWidth / 14;
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

/**
 * A lane's background, "training", across the run's part of the window (both jobs train unless a
 * mark says otherwise).
 */
export function fillTraining(f: TrackFrame, horizon: number, y: number, h: number): void {
  const { ctx, layout: L, x, palette: p } = f;
  const x0 = Math.max(L.plotLeft, x(0));
  const x1 = Math.min(L.plotLeft + L.plotWidth, x(horizon));
  ctx.fillStyle = p.training;
  ctx.fillRect(x0, y, x1 - x0, h);
}

/**
 * One lane's failure markers (`idx`: the failures' lane index) as draw steps of at most `rows`
 * rows each, drawn in the band [y, y + h), then `after` (a lane's separator, say). Each step
 * returns the marks it issued.
 */
export function failureMarkerSteps(
  ctx: CanvasRenderingContext2D,
  trace: Pick<Trace, "failures">,
  idx: LaneIndex,
  lane: number,
  band: { y: number; h: number; plotWidth: number },
  view: View,
  runs: Runs,
  p: Palette,
  rows: number,
  after?: () => void,
): (() => number)[] {
  const { time } = trace.failures;
  return laneRunSteps(
    () => new LaneRunCursor(idx, lane, time, time, failureKind(trace), view, runs),
    runs,
    rows,
    () => {
      drawMarkers(ctx, runs, band.y, band.h, band.plotWidth, p);
      after?.();
      return runs.n;
    },
  );
}
