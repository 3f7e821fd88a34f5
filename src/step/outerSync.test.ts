import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  bandwidthAxis,
  bandwidthFor,
  blockedSeconds,
  computeUtilisation,
  outerSyncFigures,
  outerSyncSeconds,
  syncStrategies,
  UTILISATION_TARGETS,
  utilisationCurve,
} from "./outerSync.ts";

const GB = 1e9;

describe("the outer sync", () => {
  it("is 2·bytes·(p − 1)/p / bandwidth + α", () => {
    // 16 GB among 4 replicas on 10 GB/s with α 50 ms: 2·16·3/4 / 10 = 2.4 s, + 0.05.
    expect(outerSyncSeconds(16 * GB, 4, { alpha: 0.05, bandwidth: 10 * GB })).toBeCloseTo(2.45, 12);
    // Two replicas: each sends one model's worth (2·(1/2)).
    expect(outerSyncSeconds(8 * GB, 2, { alpha: 0, bandwidth: 1 * GB })).toBe(8);
  });

  it("costs nothing with one replica: no all-reduce", () => {
    expect(outerSyncSeconds(16 * GB, 1, { alpha: 0.05, bandwidth: 1e6 })).toBe(0);
  });

  it("blocks for what the τ overlapped steps do not hide", () => {
    expect(blockedSeconds(10, 0.5, 0)).toBe(10);
    expect(blockedSeconds(10, 0.5, 8)).toBe(6);
    expect(blockedSeconds(10, 0.5, 30)).toBe(0);
  });
});

describe("compute utilisation H·s / (H·s + B)", () => {
  it("for data parallelism, DiLoCo and Streaming DiLoCo", () => {
    const [dp, diloco, streaming] = syncStrategies(100, 10);
    expect(dp).toMatchObject({ id: "dp", syncEvery: 1, overlapSteps: 0 });
    expect(diloco).toMatchObject({ id: "diloco", syncEvery: 100, overlapSteps: 0 });
    expect(streaming).toMatchObject({ id: "streaming", syncEvery: 100, overlapSteps: 10 });
    // s = 1 s, T = 20 s: DP 1/21; DiLoCo 100/120; Streaming blocks 20 − 10 = 10: 100/110.
    expect(computeUtilisation(1, dp!, 20)).toBeCloseTo(1 / 21, 15);
    expect(computeUtilisation(1, diloco!, 20)).toBeCloseTo(100 / 120, 15);
    expect(computeUtilisation(1, streaming!, 20)).toBeCloseTo(100 / 110, 15);
  });

  it("is 1 when nothing blocks, a step of no compute included", () => {
    expect(computeUtilisation(1, { syncEvery: 10, overlapSteps: 5 }, 5)).toBe(1);
    expect(computeUtilisation(0, { syncEvery: 10, overlapSteps: 0 }, 0)).toBe(1);
    expect(computeUtilisation(0, { syncEvery: 10, overlapSteps: 0 }, 1)).toBe(0);
  });
});

describe("the bandwidth each needs", () => {
  const problem = { bytes: 16 * GB, replicas: 8, alpha: 0.01, stepSeconds: 0.5 };

  it("gives exactly the target utilisation when the link has it", () => {
    // α 1 ms: within even DP's 99 % budget (5.05 ms).
    const fast = { ...problem, alpha: 0.001 };
    for (const cadence of syncStrategies(200, 20)) {
      for (const u of UTILISATION_TARGETS) {
        const bw = bandwidthFor(u, fast, cadence);
        expect(bw).not.toBeNull();
        const t = outerSyncSeconds(fast.bytes, fast.replicas, { alpha: fast.alpha, bandwidth: bw! });
        expect(computeUtilisation(fast.stepSeconds, cadence, t)).toBeCloseTo(u, 12);
      }
    }
  });

  it("is the closed form on hand arithmetic", () => {
    // DiLoCo H = 100, s = 0.5 s, 90 %: budget 50·(0.1/0.9) = 5.556 s, less α 0.01; volume 28 GB.
    const bw = bandwidthFor(0.9, problem, { syncEvery: 100, overlapSteps: 0 });
    expect(bw).toBeCloseTo((2 * 16 * GB * 7) / 8 / ((100 * 0.5 * 0.1) / 0.9 - 0.01), 3);
  });

  it("is unreachable (null) where α alone exceeds the budget", () => {
    // DP at 99 %: budget 0.5·0.01/0.99 = 5.05 ms < α = 10 ms: no bandwidth is enough.
    expect(bandwidthFor(0.99, problem, { syncEvery: 1, overlapSteps: 0 })).toBeNull();
    // ... while at 50 % the budget is 0.5 s and a bandwidth is.
    expect(bandwidthFor(0.5, problem, { syncEvery: 1, overlapSteps: 0 })).toBeGreaterThan(0);
    // A step of no compute has no budget at all.
    expect(bandwidthFor(0.5, { ...problem, stepSeconds: 0 }, { syncEvery: 100, overlapSteps: 0 })).toBeNull();
  });

  it("is 0 (any) with one replica or nothing to send within α's budget", () => {
    expect(bandwidthFor(0.99, { ...problem, replicas: 1 }, { syncEvery: 1, overlapSteps: 0 })).toBe(0);
    expect(bandwidthFor(0.5, { ...problem, bytes: 0 }, { syncEvery: 1, overlapSteps: 0 })).toBe(0);
    expect(bandwidthFor(0.99, { ...problem, bytes: 0 }, { syncEvery: 1, overlapSteps: 0 })).toBeNull();
  });

  it("grows with the target and shrinks with H and τ (property)", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1e3, max: 1e12, noNaN: true }),
        fc.integer({ min: 2, max: 1000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 1e-3, max: 100, noNaN: true }),
        fc.integer({ min: 1, max: 1000 }),
        (bytes, replicas, alpha, stepSeconds, h) => {
          const p = { bytes, replicas, alpha, stepSeconds };
          const need = (u: number, c: { syncEvery: number; overlapSteps: number }) =>
            bandwidthFor(u, p, c) ?? Number.POSITIVE_INFINITY;
          const c = { syncEvery: h, overlapSteps: 0 };
          expect(need(0.5, c)).toBeLessThanOrEqual(need(0.9, c));
          expect(need(0.9, c)).toBeLessThanOrEqual(need(0.99, c));
          expect(need(0.9, { syncEvery: h + 1, overlapSteps: 0 })).toBeLessThanOrEqual(need(0.9, c));
          expect(need(0.9, { syncEvery: h + 1, overlapSteps: 1 })).toBeLessThanOrEqual(
            need(0.9, { syncEvery: h + 1, overlapSteps: 0 }),
          );
        },
      ),
    );
  });
});

describe("the chart", () => {
  it("spans whole decades around the link and the bandwidths named, within a link's range", () => {
    expect(bandwidthAxis(1.25 * GB, [3e8, 2e10, null])).toEqual([1e7, 1e12]);
    expect(bandwidthAxis(1e14, [5e14])).toEqual([1e13, 1e15]);
    expect(bandwidthAxis(1e9, [0])).toEqual([1e8, 1e10]);
  });

  it("draws the utilisation the formula gives at each bandwidth", () => {
    const p = { bytes: 2 * GB, replicas: 4, alpha: 0.02, stepSeconds: 0.2 };
    const cadence = { syncEvery: 50, overlapSteps: 5 };
    const curve = utilisationCurve(p, cadence, [1e7, 1e11], 5);
    expect(curve.map((c) => c.bandwidth)).toEqual([1e7, 1e8, 1e9, 1e10, 1e11]);
    for (const c of curve) {
      const t = outerSyncSeconds(p.bytes, p.replicas, { alpha: p.alpha, bandwidth: c.bandwidth });
      expect(c.utilisation).toBe(computeUtilisation(p.stepSeconds, cadence, t));
    }
    // More bandwidth never lowers it.
    for (let i = 1; i < curve.length; i++)
      expect(curve[i]!.utilisation).toBeGreaterThanOrEqual(curve[i - 1]!.utilisation);
  });
});

describe("the panel's figures", () => {
  it("are the formulas' for each strategy on the panel's link", () => {
    const model = { bytes: 4 * GB, replicas: 4, stepSeconds: 0.3 };
    const outer = { link: { alpha: 0.01, bandwidth: 1.25 * GB }, syncEvery: 100, overlapSteps: 5 };
    const f = outerSyncFigures(model, outer);
    expect(f.syncSeconds).toBeCloseTo((2 * 4 * 3) / 4 / 1.25 + 0.01, 12);
    expect(f.strategies.map((s) => s.strategy.id)).toEqual(["dp", "diloco", "streaming"]);
    for (const s of f.strategies) {
      expect(s.utilisation).toBe(computeUtilisation(0.3, s.strategy, f.syncSeconds));
      expect(s.needed).toEqual(
        UTILISATION_TARGETS.map((u) => bandwidthFor(u, { ...model, alpha: 0.01 }, s.strategy)),
      );
    }
    expect(f.axis[0]).toBeLessThan(outer.link.bandwidth);
    expect(f.axis[1]).toBeGreaterThan(outer.link.bandwidth);
  });
});
