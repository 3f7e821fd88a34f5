/**
 * The one time ↔ pixel mapping of the timeline. The whole run maps onto the plot; a zoom
 * transform rescales that (d3's `rescaleX`), and the visible window is the rescaled domain.
 * Drawing, hovering and the zoom behaviour all go through here.
 */
import { type ScaleLinear, scaleLinear } from "d3-scale";
import { type ZoomTransform, zoomIdentity } from "d3-zoom";
import { fitWindow } from "../../link/windowParam.ts";

export type TimeScale = ScaleLinear<number, number>;

/** Where the plot sits across the canvas: all a time scale needs of a layout. */
export interface PlotSpan {
  plotLeft: number;
  plotWidth: number;
}

/** Seconds [t0, t1] onto the plot's pixels. */
export function windowScale(layout: PlotSpan, t0: number, t1: number): TimeScale {
  return scaleLinear()
    .domain([t0, t1])
    .range([layout.plotLeft, layout.plotLeft + layout.plotWidth]);
}

/** The visible window [t0, t1] under a zoom transform, clamped to the run. */
export function windowOf(layout: PlotSpan, horizon: number, transform: ZoomTransform): [number, number] {
  const [a, b] = transform.rescaleX(windowScale(layout, 0, horizon)).domain() as [number, number];
  return [Math.max(0, a), Math.min(horizon, b)];
}

/** The zoom transform that shows window [t0, t1] (at least `minSeconds` wide, inside the run). */
export function transformFor(
  layout: PlotSpan,
  horizon: number,
  window: readonly [number, number] | null,
  minSeconds: number,
): ZoomTransform {
  if (!window) return zoomIdentity;
  const [a, b] = fitWindow(window, horizon, minSeconds);
  const k = horizon / (b - a);
  const whole = windowScale(layout, 0, horizon);
  return zoomIdentity.translate(layout.plotLeft - k * whole(a), 0).scale(k);
}
