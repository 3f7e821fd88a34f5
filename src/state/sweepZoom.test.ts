import { describe, expect, it } from "vitest";
import { ettrSpan, NARROW_SPAN, sweepEttrs, sweepZoomed } from "./sweepZoom.ts";

const e = (p5: number, mean: number, p95: number) => ({ p5, mean, p95 });

describe("the sweep chart's ETTR axis", () => {
  it("zooms by default when every curve lies in a narrow band, not when they spread", () => {
    // A 4-point peak between 78 % and 85 %: hidden on 0–100 %.
    const narrow = [e(0.78, 0.8, 0.82), e(0.8, 0.83, 0.85), e(0.77, 0.79, 0.81)];
    expect(sweepZoomed(null, narrow)).toBe(true);
    const wide = [e(0.3, 0.35, 0.4), e(0.8, 0.85, 0.9)];
    expect(ettrSpan(wide)?.hi).toBe(0.9);
    expect(0.9 - 0.3).toBeGreaterThan(NARROW_SPAN);
    expect(sweepZoomed(null, wide)).toBe(false);
    expect(sweepZoomed(null, [])).toBe(false);
  });

  it("keeps the person's or the link's choice either way", () => {
    const narrow = [e(0.78, 0.8, 0.82)];
    expect(sweepZoomed(false, narrow)).toBe(false);
    expect(sweepZoomed(true, [e(0.1, 0.5, 0.9)])).toBe(true);
  });

  it("reads the done points' ETTRs of the policies drawn", () => {
    const mc = { ftHsdp: { ettr: e(0.7, 0.75, 0.8) }, synchronous: { ettr: e(0.5, 0.55, 0.6) } };
    // biome-ignore lint/suspicious/noExplicitAny: a partial result, only the ETTRs read
    const results = [{ mc: mc as any }, { mc: null }];
    expect(sweepEttrs(results, ["ftHsdp"])).toEqual([e(0.7, 0.75, 0.8)]);
    expect(sweepEttrs(results, ["ftHsdp", "synchronous"])).toHaveLength(2);
  });
});
