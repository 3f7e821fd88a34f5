/** The time axis and its grid lines. */

import { formatTick, timeTicks } from "./timeAxis.ts";
import { AXIS_H, BUILT_IN_SPACE, type Layout, TRACK_IDS } from "./timelineLayout.ts";
import type { Palette } from "./timelinePalette.ts";
import type { TimeScale } from "./timelineScale.ts";
import type { TrackType } from "./timelineTrack.ts";

export function drawAxis(ctx: CanvasRenderingContext2D, L: Layout, x: TimeScale, p: Palette): void {
  const [t0, t1] = x.domain() as [number, number];
  const { step, ticks } = timeTicks(t0, t1, Math.max(2, Math.floor(L.plotWidth / 110)));
  ctx.font = "11px system-ui, sans-serif";
  ctx.textBaseline = "middle";
  ctx.textAlign = "center";
  for (const t of ticks) {
    const px = Math.round(x(t)) + 0.5;
    ctx.fillStyle = p.grid;
    ctx.fillRect(px - 0.5, AXIS_H - 5, 1, L.height - AXIS_H + 5);
    ctx.fillStyle = p.muted;
    ctx.fillText(formatTick(t, step), Math.min(Math.max(px, L.plotLeft + 30), L.width - 34), AXIS_H / 2 - 1);
  }
}

/** The axis as a track: its grid lines run under every other track's marks. */
export const axisTrack: TrackType = {
  id: TRACK_IDS.axis,
  create: () => ({
    id: TRACK_IDS.axis,
    space: () => BUILT_IN_SPACE.axis,
    buildSteps: () => [],
    background: (f) => drawAxis(f.ctx, f.layout, f.x, f.palette),
    drawSteps: () => [],
  }),
};
