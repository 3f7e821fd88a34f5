import { zoomIdentity } from "d3-zoom";
import { describe, expect, it } from "vitest";
import { stackTracks } from "./timelineLayout.ts";
import { transformFor, windowOf, windowScale } from "./timelineScale.ts";

const L = stackTracks(1000, [{ id: "band", space: { height: 100, gapAbove: 0 } }]);
const H = 30 * 86_400;

describe("timeline scale", () => {
  it("maps the whole run onto the plot with no zoom", () => {
    expect(windowOf(L, H, zoomIdentity)).toEqual([0, H]);
    const x = windowScale(L, 0, H);
    expect(x(0)).toBe(L.plotLeft);
    expect(x(H)).toBe(L.plotLeft + L.plotWidth);
  });

  it("round-trips a window through the zoom transform", () => {
    const w: [number, number] = [86_400, 2 * 86_400];
    const [a, b] = windowOf(L, H, transformFor(L, H, w, 10));
    expect(a).toBeCloseTo(w[0], 3);
    expect(b).toBeCloseTo(w[1], 3);
  });

  it("keeps a requested window inside the run and at least the minimum wide", () => {
    const [a, b] = windowOf(L, H, transformFor(L, H, [H - 3, H + 100], 10));
    expect(b).toBeCloseTo(H, 3);
    expect(b - a).toBeCloseTo(10, 3);
  });
});
