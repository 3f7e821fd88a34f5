import { describe, expect, it } from "vitest";
import { t95, tTwoSidedCdf } from "./tQuantile.ts";

describe("t95", () => {
  // Two-sided 95 % quantiles of Student's t from any statistics table (e.g. NIST/SEMATECH 1.3.6.7.2).
  const table: [number, number][] = [
    [1, 12.706],
    [2, 4.303],
    [3, 3.182],
    [4, 2.776],
    [5, 2.571],
    [9, 2.262],
    [19, 2.093],
    [30, 2.042],
    [100, 1.984],
  ];
  it.each(table)("df = %i gives %f", (df, want) => {
    expect(t95(df)).toBeCloseTo(want, 3);
  });
  it("tends to the normal 1.96 and meets the expansion where it switches", () => {
    expect(t95(1e6)).toBeCloseTo(1.96, 3);
    expect(Math.abs(t95(400) - t95(401))).toBeLessThan(1e-4);
    expect(tTwoSidedCdf(t95(7), 7)).toBeCloseTo(0.95, 10);
  });
  it("has no interval below two runs", () => {
    expect(t95(0)).toBe(Number.POSITIVE_INFINITY);
  });
});
