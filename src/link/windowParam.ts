/**
 * The timeline's time window in a link: `w=<start>,<end>` in simulated seconds, to a tenth of a
 * second (the timeline stores it in tenths, so a reopened link shows the identical window).
 */
import { LinkError } from "./linkError.ts";

export type TimeWindow = readonly [number, number];

/** The narrowest window the timeline shows (seconds): a narrower one is widened to it. */
export const MIN_WINDOW_SECONDS = 10;

/** `w=12.5,3600` → [12.5, 3600]; anything else → null (the whole horizon). */
export function parseWindowParam(v: string | undefined): TimeWindow | null {
  if (!v) return null;
  const m = /^(\d+(?:\.\d+)?),(\d+(?:\.\d+)?)$/.exec(v);
  if (!m) return null;
  const a = Number(m[1]);
  const b = Number(m[2]);
  // 400 digits read as Infinity: not a window (NaN widths in the SVG otherwise).
  return Number.isFinite(b) && b > a ? [a, b] : null;
}

/** The window as the timeline draws it: inside [0, horizon] and at least `minSeconds` wide. */
export function fitWindow(w: TimeWindow, horizon: number, minSeconds = MIN_WINDOW_SECONDS): TimeWindow {
  const a = Math.max(0, Math.min(w[0], horizon - minSeconds));
  const b = Math.max(a + minSeconds, Math.min(w[1], horizon));
  return [a, b];
}

/** As parseWindowParam, but a window that is there and cannot be read is an error to report. */
export function decodeWindowParam(v: string | undefined): TimeWindow | null {
  const w = parseWindowParam(v);
  if (w === null && v) {
    throw new LinkError(
      `The link's time window "w=${v.slice(0, 24)}" is not "start,end" in finite seconds with start < end.`,
    );
  }
  return w;
}

export function windowParam(w: TimeWindow | null): string {
  return w ? `${w[0].toFixed(1)},${w[1].toFixed(1)}` : "";
}
