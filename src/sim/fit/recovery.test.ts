/**
 * The fit against known answers: logs drawn by the engine's own failure generator from known
 * parameters, and per-host counts drawn from a known mixture.
 */
import { describe, expect, it } from "vitest";
import { drawnLog, logCsv } from "../../testing/engineLog.ts";
import { Rng } from "../rng.ts";
import { fitLog } from "./fitLog.ts";
import { parseLog } from "./parseLog.ts";
import { fitPoissonMixture } from "./poissonMixture.ts";

/** 400 hosts for a year at ~300 failures: the InfiniteHBD log's fleet, a little busier. */
const fleet = (shape: number) => ({
  cluster: { gpus: 3200, gpusPerHost: 8, replicas: 4 },
  training: { days: 365 },
  failures: { perHostDay: 300 / (400 * 365), arrivals: "weibull" as const, weibullShape: shape },
});

describe("parameter recovery from engine-drawn logs", { timeout: 60_000 }, () => {
  it("the 95 % interval of k covers the true k in about 95 % of 200 logs (k = 0.6)", () => {
    const trueK = 0.6;
    let covered = 0;
    let shapes = 0;
    const logs = 200;
    for (let seed = 1; seed <= logs; seed++) {
      const fit = fitLog(parseLog(logCsv(drawnLog(fleet(trueK), seed)), { unit: "seconds" }), {
        hosts: 400,
        days: 365,
      });
      const w = fit.weibull!;
      if (w.shapeLo <= trueK && trueK <= w.shapeHi) covered++;
      shapes += w.shape;
    }
    // Measured (seeds 1–200, deterministic): 184 of 200 (92.0 %); mean fitted k 0.606. The Wald
    // interval on ln k is a large-sample one; ~300 gaps a log leave it a little narrow.
    expect(covered / logs).toBeGreaterThanOrEqual(0.9);
    expect(covered / logs).toBeLessThanOrEqual(0.99);
    expect(shapes / logs).toBeCloseTo(trueK, 1);
  });

  it("a bursty engine log chooses Weibull; a Poisson one (k = 1) chooses Poisson", () => {
    const bursty = fitLog(parseLog(logCsv(drawnLog(fleet(0.5), 7)), { unit: "seconds" }), { hosts: 400 });
    expect(bursty.arrivals).toBe("weibull");
    const plain = fitLog(parseLog(logCsv(drawnLog(fleet(1), 7)), { unit: "seconds" }), { hosts: 400 });
    expect(plain.arrivals).toBe("poisson");
    expect(plain.weibull!.shapeLo).toBeLessThan(1);
    expect(plain.weibull!.shapeHi).toBeGreaterThan(1);
  });

  it("the rate is the engine's: bursts / (H × D) near perHostDay", () => {
    const fit = fitLog(
      parseLog(
        logCsv(drawnLog({ ...fleet(1), training: { days: 365 }, failures: { perHostDay: 0.01 } }, 3)),
        { unit: "seconds" },
      ),
      { hosts: 400, days: 365 },
    );
    // 1,460 expected: within 4 standard deviations (√1460 ≈ 38).
    expect(Math.abs(fit.perHostDay! * 400 * 365 - 1460)).toBeLessThan(4 * 38);
    // Poisson hosts: dispersion near 1, one class.
    expect(fit.hostsDispersion!).toBeGreaterThan(0.7);
    expect(fit.hostsDispersion!).toBeLessThan(1.3);
  });
});

/** Poisson draws by inversion (small means). */
function poisson(rng: Rng, mean: number): number {
  const u = rng.uniform();
  let k = 0;
  let p = Math.exp(-mean);
  let cdf = p;
  while (u > cdf && k < 1000) {
    k++;
    p *= mean / k;
    cdf += p;
  }
  return k;
}

describe("the two-class mixture against known answers", () => {
  it("recovers a quarter of lemon hosts failing 6× as often (20,000 hosts)", () => {
    const rng = new Rng(11);
    const counts = Array.from({ length: 20_000 }, () =>
      rng.uniform() < 0.25 ? poisson(rng, 3) : poisson(rng, 0.5),
    );
    const m = fitPoissonMixture(counts)!;
    expect(m.chosen).toBe("two");
    expect(m.share).toBeGreaterThan(0.22);
    expect(m.share).toBeLessThan(0.28);
    expect(Math.abs(m.lowMean - 0.5)).toBeLessThan(0.05);
    expect(Math.abs(m.highMean - 3)).toBeLessThan(0.15);
    expect(m.factor).toBeGreaterThan(5);
    expect(m.factor).toBeLessThan(7);
  });

  it("a fleet of alike hosts keeps one class", () => {
    const rng = new Rng(12);
    const m = fitPoissonMixture(Array.from({ length: 20_000 }, () => poisson(rng, 1)))!;
    expect(m.chosen).toBe("one");
  });

  it("at its fixed point: π is the mean responsibility, each mean its weighted count", () => {
    const counts = [0, 0, 0, 0, 0, 0, 1, 1, 2, 9, 11, 12];
    const m = fitPoissonMixture(counts)!;
    const pmf = (c: number, l: number) =>
      (Math.exp(-l) * l ** c) / [...Array(c).keys()].reduce((a, i) => a * (i + 1), 1);
    const r = counts.map(
      (c) =>
        (m.share * pmf(c, m.highMean)) / (m.share * pmf(c, m.highMean) + (1 - m.share) * pmf(c, m.lowMean)),
    );
    expect(r.reduce((a, b) => a + b, 0) / counts.length).toBeCloseTo(m.share, 6);
    expect(counts.reduce((a, c, i) => a + r[i]! * c, 0) / r.reduce((a, b) => a + b, 0)).toBeCloseTo(
      m.highMean,
      5,
    );
    // Three hosts failing ~10× as often: a quarter of the fleet.
    expect(m.share).toBeCloseTo(0.25, 2);
    expect(m.chosen).toBe("two");
  });

  it("no failure: nothing to split", () => {
    expect(fitPoissonMixture([0, 0, 0])).toBeNull();
  });
});
