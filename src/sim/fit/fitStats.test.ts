/**
 * Each statistic of §5 on logs small enough to work by hand; the hand arithmetic is in the test.
 */
import { describe, expect, it } from "vitest";
import { causeShares } from "./causeMix.ts";
import { driftOf } from "./drift.ts";
import { fitLog } from "./fitLog.ts";
import { fittedScenario } from "./fitScenario.ts";
import { parseLog } from "./parseLog.ts";
import { dispersionIndex } from "./poissonMixture.ts";
import { lognormalMean, poolRepairLaw } from "./repairs.ts";
import { chiSquarePValue, lnGamma, upperGammaQ } from "./specialFunctions.ts";
import { fitExponential, fitWeibull } from "./weibullFit.ts";

const DAY = 86_400;
const csv = (rows: string[]) => parseLog(`time,host,cause,end\n${rows.join("\n")}`);

describe("special functions", () => {
  it("ln Γ at integers and halves", () => {
    expect(lnGamma(1)).toBeCloseTo(0, 13);
    expect(lnGamma(5)).toBeCloseTo(Math.log(24), 12);
    expect(lnGamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 12);
    expect(lnGamma(101)).toBeCloseTo(363.73937555556347, 9);
  });

  it("Q(1, x) = e^−x and the chi-square of 2 degrees of freedom: p = e^(−x/2)", () => {
    for (const x of [0.1, 1, 3, 10, 40]) {
      expect(upperGammaQ(1, x)).toBeCloseTo(Math.exp(-x), 13);
      expect(chiSquarePValue(x, 2)).toBeCloseTo(Math.exp(-x / 2), 13);
    }
  });

  it("chi-square of 1 degree of freedom: p(3.841459) = 0.05; of 10: p(18.307) = 0.05", () => {
    expect(chiSquarePValue(3.841458820694124, 1)).toBeCloseTo(0.05, 10);
    expect(chiSquarePValue(18.307038053275146, 10)).toBeCloseTo(0.05, 10);
  });
});

describe("arrivals", () => {
  it("exponential: rate = n / Σ gaps, ℓ = n ln rate − n, AIC = 2 − 2ℓ", () => {
    // gaps 1, 2, 3: rate 3/6 = 0.5; ℓ = 3 ln 0.5 − 3 = −5.0794415; AIC = 12.158883
    const f = fitExponential([1, 2, 3]);
    expect(f.rate).toBe(0.5);
    expect(f.logLik).toBeCloseTo(3 * Math.log(0.5) - 3, 13);
    expect(f.aic).toBeCloseTo(12.158883083359672, 12);
  });

  it("Weibull of two gaps 1 and e²: k·tanh(k) = 1 (ln of the gaps around their mean: ±1), θ from Σ (x/θ)^k = n", () => {
    // With y = x / √(x₁x₂), ln y = ∓1 and the shape equation reads tanh(k) − 1/k = 0: k = 1.19967864…
    const f = fitWeibull([1, Math.E ** 2])!;
    expect(f.shape).toBeCloseTo(1.199678640257734, 12);
    // θ^k = (1 + e^(2k)) / 2
    expect(f.scaleSeconds).toBeCloseTo(((1 + Math.exp(2 * f.shape)) / 2) ** (1 / f.shape), 10);
    expect(f.shapeLo).toBeLessThan(f.shape);
    expect(f.shapeHi).toBeGreaterThan(f.shape);
  });

  it("Weibull at k = 1 has the exponential's likelihood, so its AIC is at most 2 above it", () => {
    const gaps = [0.3, 1.7, 0.9, 2.4, 0.1, 1.1];
    const e = fitExponential(gaps);
    const w = fitWeibull(gaps)!;
    expect(w.logLik).toBeGreaterThanOrEqual(e.logLik - 1e-12);
    expect(w.aic).toBeLessThanOrEqual(e.aic + 2 + 1e-12);
  });

  it("a Weibull shape does not depend on the unit of the gaps; its scale does", () => {
    const gaps = [5, 60, 7, 300, 2, 45, 1200];
    const a = fitWeibull(gaps)!;
    const b = fitWeibull(gaps.map((g) => g * 3600))!;
    expect(b.shape).toBeCloseTo(a.shape, 12);
    expect(b.scaleSeconds / 3600).toBeCloseTo(a.scaleSeconds, 9);
  });

  it("gives no Weibull for one gap or equal gaps", () => {
    expect(fitWeibull([5])).toBeNull();
    expect(fitWeibull([2, 2, 2])).toBeNull();
  });
});

describe("a tiny log, fitted whole", () => {
  // Hosts a, b, c; 4 fault starts, at days 0 (a and b together), 1 (a), 3 (c). Ends: a at day 0.5
  // (closes a's day-0 fault: 12 h), b at day 2 (48 h), c at day 4 (24 h); a's day-1 fault stays open.
  const log = csv(["0,a,GPU,0.5", "0,b,GPU,2", "1,a,NIC,", "3,c,GPU,4"]);
  const fit = fitLog(log);

  it("bursts: the two starts at day 0 are one failure of two hosts", () => {
    expect(fit.events).toBe(4);
    expect(fit.bursts).toBe(3);
    expect(fit.multiHostBurstShare).toBeCloseTo(1 / 3, 15);
  });

  it("rate: H = 3 hosts seen (an upper bound), D = 4 − 0 days (ends included)", () => {
    expect(fit.hosts).toBe(3);
    expect(fit.hostsFromLog).toBe(true);
    expect(fit.days).toBe(4);
    expect(fit.perHostDay).toBeCloseTo(3 / 12, 15);
    expect(fit.faultsPerHostDay).toBeCloseTo(4 / 12, 15);
  });

  it("H and D asked for replace the log's", () => {
    const asked = fitLog(log, { hosts: 10, days: 8 });
    expect(asked.perHostDay).toBeCloseTo(3 / 80, 15);
    expect(asked.hostsFromLog).toBe(false);
    expect(asked.hostCounts.length).toBe(10);
  });

  it("arrivals: gaps 1 and 2 days; exponential rate 2 / 3 days; Weibull of two gaps", () => {
    expect(Array.from(fit.gapsSeconds)).toEqual([DAY, 2 * DAY]);
    expect(fit.exponential!.rate).toBeCloseTo(2 / (3 * DAY), 18);
    // ln y = ±(ln 2)/2: u tanh u = 1 with u = k (ln 2)/2.
    expect(fit.weibull!.shape).toBeCloseTo(1.199678640257734 / (Math.log(2) / 2), 9);
    // 2 parameters on 2 gaps cannot beat 1 by more than 2 here: Poisson is chosen.
    expect(fit.weibull!.aic).toBeGreaterThan(fit.exponential!.aic - 2);
    expect(fit.arrivals).toBe("poisson");
  });

  it("causes by the cause column: GPU 3 of 4, NIC 1 of 4", () => {
    expect(fit.causes).toEqual([
      { name: "GPU", count: 3, share: 0.75 },
      { name: "NIC", count: 1, share: 0.25 },
    ]);
  });

  it("repairs: 12, 24, 48 h: median 24, mean 28, p90 = 24 + 0.8 × 24 = 43.2; one open", () => {
    const r = fit.repairs!;
    expect(Array.from(fit.repairHours)).toEqual([12, 24, 48]);
    expect(r.medianHours).toBe(24);
    expect(r.meanHours).toBe(28);
    expect(r.p90Hours).toBeCloseTo(43.2, 12);
    expect(r.open).toBe(1);
    // μ = mean of ln 12, ln 24, ln 48 = ln 24; σ² = ((ln 2)² + 0 + (ln 2)²) / 3
    expect(r.lognormal!.mu).toBeCloseTo(Math.log(24), 12);
    expect(r.lognormal!.sigma).toBeCloseTo(Math.log(2) * Math.sqrt(2 / 3), 12);
  });

  it("lemon hosts: counts a 2, b 1, c 1: mean 4/3, variance 2/9, dispersion 1/6", () => {
    expect(Array.from(fit.hostCounts)).toEqual([2, 1, 1]);
    expect(fit.hostsDispersion).toBeCloseTo(1 / 6, 14);
    expect(fit.mixture!.chosen).toBe("one");
  });

  it("drift: one 30-day window of 4 days: nothing to compare", () => {
    expect(fit.drift).toEqual({ windows: [4], pValue: null });
    expect(fit.notes.map((n) => n.what)).toContain("drift");
  });
});

describe("repairs: the oldest open fault of the host closes first", () => {
  it("two open faults of one host: the first end closes the earlier", () => {
    const fit = fitLog(
      parseLog(
        JSON.stringify([
          { node_id: "a", event_time: 0, event_type: "fault_start", fault_type: {} },
          { node_id: "a", event_time: 1, event_type: "fault_start", fault_type: {} },
          { node_id: "a", event_time: 1.5, event_type: "fault_end", fault_type: {} },
          { node_id: "b", event_time: 1.5, event_type: "fault_end", fault_type: {} },
        ]),
      ),
    );
    // a: 0 → 1.5 days = 36 h; the day-1 fault stays open; b's end closes nothing.
    expect(Array.from(fit.repairHours)).toEqual([36]);
    expect(fit.repairs!.open).toBe(1);
    expect(fit.repairs!.unmatchedEnds).toBe(1);
  });
});

describe("causes", () => {
  it("more than 32 labels: the 31 largest keep their names, the rest merge into other", () => {
    const counts = Array.from({ length: 40 }, (_, i) => ({ name: `c${i}`, count: 100 - i }));
    const shares = causeShares(counts);
    expect(shares).toHaveLength(32);
    expect(shares.slice(0, 31).map((c) => c.name)).toEqual(counts.slice(0, 31).map((c) => c.name));
    // c31 .. c39: 69 + 68 + … + 61 = 585
    expect(shares[31]).toEqual({
      name: "other",
      count: 585,
      share: 585 / counts.reduce((a, c) => a + c.count, 0),
    });
  });
});

describe("drift", () => {
  it("two equal 30-day windows with 10 and 30 starts: χ² = (10−20)²/20 + (30−20)²/20 = 10, df 1", () => {
    const starts = Float64Array.from([...Array(10).fill(DAY), ...Array(30).fill(40 * DAY)]);
    const d = driftOf(starts, 0, 60);
    expect(d.windows).toEqual([10, 30]);
    expect(d.pValue).toBeCloseTo(chiSquarePValue(10, 1), 15);
    expect(d.pValue).toBeCloseTo(0.001565402258002549, 10);
  });

  it("a short last window expects fewer: 45 days, 30 and 15 days long, 20 and 10 starts fit exactly", () => {
    const starts = Float64Array.from([...Array(20).fill(DAY), ...Array(10).fill(31 * DAY)]);
    expect(driftOf(starts, 0, 45).pValue).toBeCloseTo(1, 12);
  });
});

describe("lemon hosts: dispersion over the whole fleet", () => {
  it("hosts absent from the log count 0", () => {
    expect(dispersionIndex([3, 0, 0, 0])).toBeCloseTo(2.25, 14); // mean 3/4, variance 27/16
  });
});

describe("degenerate logs: say what cannot be estimated, fit the rest", () => {
  it("one failure: no gap; rate and causes still fitted", () => {
    const fit = fitLog(csv(["1,a,GPU,2"]), { hosts: 4 });
    expect(fit.exponential).toBeNull();
    expect(fit.arrivals).toBeNull();
    expect(fit.notes).toContainEqual({ what: "arrivals", why: "one failure has no gap between failures" });
    expect(fit.perHostDay).toBeCloseTo(1 / 4, 15);
    expect(fit.repairs!.medianHours).toBe(24);
  });

  it("all failures at one instant, no ends: one burst, a zero window; rate and arrivals not estimated", () => {
    const fit = fitLog(csv(["5,a,GPU,", "5,b,GPU,", "5,c,NIC,"]));
    expect(fit.bursts).toBe(1);
    expect(fit.multiHostBurstShare).toBe(1);
    expect(fit.perHostDay).toBeNull();
    expect(fit.notes.map((n) => n.what)).toEqual(["rate", "arrivals", "repairs", "drift"]);
    expect(fit.notes[1]!.why).toBe(
      "all 3 fault starts are one failure (one instant): there is no gap between failures",
    );
    expect(fit.causes.map((c) => c.name)).toEqual(["GPU", "NIC"]);
  });

  it("a zero window given with --days is refused by name", () => {
    expect(() => fitLog(csv(["1,a,x,"]), { days: 0 })).toThrow(
      "days: got 0; must be a number in (0, 36,500]",
    );
  });

  it("fewer hosts than the log names is refused", () => {
    expect(() => fitLog(csv(["1,a,x,", "2,b,x,"]), { hosts: 1 })).toThrow(
      /hosts: got 1, but the log names 2 distinct hosts/,
    );
  });

  it("a counts table: rate and mix, the rest not estimated", () => {
    const fit = fitLog(
      parseLog(JSON.stringify({ gpus: 16_384, gpusPerHost: 8, days: 54, causes: { GPU: 300, other: 119 } })),
    );
    expect(fit.perHostDay).toBeCloseTo(419 / (2048 * 54), 15);
    expect(fit.causes.map((c) => c.share)).toEqual([300 / 419, 119 / 419]);
    expect(fit.notes.map((n) => n.what)).toEqual(["arrivals", "repairs", "lemons", "drift"]);
  });
});

describe("a job-wide failure (an empty host, as a run's CSV export writes one)", () => {
  it("counts in the bursts, rate and causes, not per host, and is never an open repair", () => {
    const fit = fitLog(parseLog("time,host,cause\n0,a,GPU\n10,,job\n20,b,GPU\n"), { hosts: 2, days: 1 });
    expect(fit.bursts).toBe(3);
    expect(fit.perHostDay).toBeCloseTo(3 / 2, 15);
    expect(Array.from(fit.hostCounts)).toEqual([1, 1]);
    expect(fit.causes.map((c) => [c.name, c.count])).toEqual([
      ["GPU", 2],
      ["job", 1],
    ]);
    expect(fit.repairs).toBeNull();
  });
});

describe("the repair law a fit applies to the spare pool", () => {
  // Heavy at both ends, as the InfiniteHBD log: many repairs of minutes, a few of weeks. The
  // maximum-likelihood lognormal (the chart's) then has a mean far above the log's.
  const hours = [
    ...Array.from({ length: 30 }, (_, i) => 0.05 + 0.01 * i),
    ...Array.from({ length: 40 }, (_, i) => 10 + i),
    ...Array.from({ length: 10 }, (_, i) => 400 + 100 * i),
  ];
  const rows = hours.map((h, i) => `${i},h${i},GPU,${i + h / 24}`);
  const fit = fitLog(csv(rows), { hosts: 400 });

  it("reproduces the log's mean and median, where the best-fitting law's mean is several times the log's", () => {
    const r = fit.repairs!;
    const ml = r.lognormal!;
    expect(lognormalMean(Math.exp(ml.mu), ml.sigma)).toBeGreaterThan(2 * r.meanHours);
    const law = poolRepairLaw(r)!;
    expect(law.matches).toBe("median and mean");
    expect(law.medianHours).toBeCloseTo(r.medianHours, 9);
    expect(lognormalMean(law.medianHours, law.sigma)).toBeCloseTo(r.meanHours, 9);
    // "Use this fit" applies it, to 6 digits.
    const spares = fittedScenario(fit, "t").scenario.spares!;
    expect(spares.repairHours).toBeCloseTo(r.medianHours, 4);
    expect(lognormalMean(spares.repairHours, spares.repairSigma) / r.meanHours).toBeCloseTo(1, 4);
  });

  it("a log whose mean is at or below its median: the fitted σ, and the median that gives the mean", () => {
    const law = poolRepairLaw({
      medianHours: 30,
      meanHours: 28,
      p90Hours: 40,
      lognormal: { mu: 3, sigma: 0.5 },
    })!;
    expect(law).toMatchObject({ matches: "mean", sigma: 0.5 });
    expect(lognormalMean(law.medianHours, law.sigma)).toBeCloseTo(28, 9);
  });
});
