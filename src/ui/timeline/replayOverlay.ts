/**
 * The replay's marks over a drawn timeline: the cursor, and an outline around every phase the
 * cursor is in, as each track says (Track.replay: a whole-job policy's recovery on its lane; each
 * replica's detect / restart / catch-up / rejoin, a global stall, dashed), so the phases light up
 * as the cursor passes. Drawn over a cached copy of the timeline, so a replay frame costs this
 * overlay plus one image copy. At most MAX_REPLAY_OUTLINES outlines a frame, however many
 * replicas are down at once.
 */
import type { Moment } from "../../state/traceAt.ts";
import { formatClock } from "./timeAxis.ts";
import { AXIS_H, type Layout } from "./timelineLayout.ts";
import type { Palette } from "./timelinePalette.ts";
import type { TimeScale } from "./timelineScale.ts";
import { MAX_REPLAY_OUTLINES, type ReplayMarks } from "./timelineTrack.ts";

/** An outline with a halo in the background colour, visible on every phase colour. */
function outline(ctx: CanvasRenderingContext2D, L: Layout, x0: number, x1: number, y: number, h: number) {
  const right = L.plotLeft + L.plotWidth;
  if (x1 < L.plotLeft || x0 > right) return;
  // At least 2 px wide, so an interval thinner than a pixel still shows; clipped to the plot.
  const a = Math.max(L.plotLeft, Math.min(x0, x1 - 2));
  const b = Math.min(right, Math.max(x1, a + 2));
  ctx.strokeRect(a, y + 1, b - a, h - 2);
}

export function drawReplayOverlay(
  ctx: CanvasRenderingContext2D,
  L: Layout,
  x: TimeScale,
  marks: ReplayMarks,
  m: Moment,
  p: Palette,
): void {
  const px = Math.round(x(m.t));
  const inPlot = px >= L.plotLeft && px <= L.plotLeft + L.plotWidth;
  const boxes = marks.boxes.slice(0, MAX_REPLAY_OUTLINES);
  for (const [width, colour] of [
    [4, p.bg],
    [2, p.text],
  ] as const) {
    ctx.lineWidth = width;
    ctx.strokeStyle = colour;
    for (const [x0, x1, y, h] of boxes) outline(ctx, L, x0, x1, y, h);
  }
  // A global stall: every replica waits, so its span is outlined across all its replica lanes.
  ctx.setLineDash([4, 3]);
  for (const [x0, x1, y, h] of marks.dashed) outline(ctx, L, x0, x1, y, h);
  ctx.setLineDash([]);
  if (!inPlot) return;
  // The cursor, with a halo, and its time on the axis row.
  ctx.fillStyle = p.bg;
  ctx.fillRect(px - 2, AXIS_H - 4, 4, L.height - AXIS_H + 4);
  ctx.fillStyle = p.accent;
  ctx.fillRect(px - 1, AXIS_H - 4, 2, L.height - AXIS_H + 4);
  const label = formatClock(m.t);
  ctx.font = "600 11px system-ui, sans-serif";
  const w = ctx.measureText(label).width + 10;
  const lx = Math.max(L.plotLeft, Math.min(px - w / 2, L.plotLeft + L.plotWidth - w));
  ctx.fillStyle = p.accent;
  ctx.fillRect(lx, 2, w, AXIS_H - 6);
  ctx.fillStyle = p.bg;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.fillText(label, lx + w / 2, 2 + (AXIS_H - 6) / 2);
}
