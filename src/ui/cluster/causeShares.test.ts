import { describe, expect, it } from "vitest";
import { withPercent } from "./causeShares.ts";

const shares = (w: readonly number[]) => {
  const total = w.reduce((a, b) => a + b, 0);
  return w.map((x) => x / total);
};

describe("a cause's share typed as a percentage", () => {
  it("gives the edited cause exactly that share: 10 for one of two causes is 10 %, not 91 %", () => {
    const next = withPercent([1, 1], 1, 10);
    expect(next).toEqual([90, 10]);
    expect(shares(next)[1]).toBeCloseTo(0.1, 12);
  });

  it("keeps the other causes' proportions and makes the weights sum to 100", () => {
    // Llama 3's first three causes as counts (148, 72, 35 of 255), then the first set to 50 %.
    const next = withPercent([148, 72, 35], 0, 50);
    expect(next[0]).toBe(50);
    expect((next[1] ?? 0) / (next[2] ?? 1)).toBeCloseTo(72 / 35, 3);
    expect(next.reduce((a, b) => a + b, 0)).toBeCloseTo(100, 3);
  });

  it("never rounds a small share to 0 (the validator would refuse it)", () => {
    const next = withPercent([1, 1e-9, 1], 0, 99.99);
    expect(next[1]).toBeGreaterThan(0);
  });
});
