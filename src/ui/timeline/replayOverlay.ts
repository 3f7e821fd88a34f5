/**
 * The replay's marks over a drawn timeline: the cursor, and an outline around every phase the
 * cursor is in, for each selected policy by its recording's kind (a whole-job policy's recovery
 * on its lane; each replica's detect / restart / catch-up / rejoin, a global stall, dashed), so the phases light up as the cursor passes. Drawn over a cached copy
 * of the timeline, so a replay frame costs this overlay plus one image copy. At most
 * MAX_OUTLINES outlines a frame, however many replicas are down at once.
 */
import type { Trace } from "../../sim/types.ts";
import type { Moment } from "../../state/traceAt.ts";
import { formatClock } from "./timeAxis.ts";
import { AXIS_H, type Layout, SYNC_H, wholeJobLaneId } from "./timelineLayout.ts";
import type { Palette } from "./timelinePalette.ts";
import type { TimeScale } from "./timelineScale.ts";

const MAX_OUTLINES = 256;

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
  trace: Trace,
  m: Moment,
  p: Palette,
): void {
  const px = Math.round(x(m.t));
  const inPlot = px >= L.plotLeft && px <= L.plotLeft + L.plotWidth;
  const boxes: [number, number, number, number][] = [];
  const stalls: [number, number][] = [];
  for (const pm of m.policies) {
    const rec = trace.recordings[pm.key];
    if (!rec) continue;
    if (pm.kind === "wholeJob" && rec.kind === "wholeJob") {
      const slot = L.slots[wholeJobLaneId(pm.key)];
      if (pm.row >= 0 && slot)
        boxes.push([
          x(rec.intervals.start[pm.row] as number),
          x(rec.intervals.end[pm.row] as number),
          slot.y,
          SYNC_H,
        ]);
    } else if (pm.kind === "replicas" && rec.kind === "replicas") {
      const ft = rec.intervals;
      const rows = pm.ft.rows;
      for (let k = 0; k < rows.length && boxes.length < MAX_OUTLINES; k++) {
        const i = rows[k] as number;
        const lane = Math.floor((ft.replica[i] as number) / L.group);
        boxes.push([x(ft.start[i] as number), x(ft.end[i] as number), L.ftY + lane * L.laneH, L.laneH]);
      }
      if (pm.stallRow >= 0)
        stalls.push([x(rec.stalls.start[pm.stallRow] as number), x(rec.stalls.end[pm.stallRow] as number)]);
    }
  }
  for (const [width, colour] of [
    [4, p.bg],
    [2, p.text],
  ] as const) {
    ctx.lineWidth = width;
    ctx.strokeStyle = colour;
    for (const [x0, x1, y, h] of boxes) outline(ctx, L, x0, x1, y, h);
  }
  // A global stall: every replica waits, so its span is outlined across all the replica lanes.
  for (const [s0, s1] of stalls) {
    ctx.setLineDash([4, 3]);
    outline(ctx, L, s0 - 2, s1 + 2, L.ftY - 3, L.ftH + 6);
    ctx.setLineDash([]);
  }
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
