import { describe, expect, it } from "vitest";
import { pValueText } from "../../sim/fit/drift.ts";
import type { LogFit } from "../../sim/fit/fitLog.ts";
import { fitLog } from "../../sim/fit/fitLog.ts";
import { parseLog } from "../../sim/fit/parseLog.ts";
import { drawnLog, logCsv } from "../../testing/engineLog.ts";
import { arrivalWords, causesTerm, driftWords, durationWords, sentence, shortGaps } from "./fitWords.ts";

const fitOf = (shape: number) =>
  fitLog(
    parseLog(
      logCsv(
        drawnLog(
          {
            cluster: { gpus: 3200, gpusPerHost: 8, replicas: 4 },
            training: { days: 365 },
            failures: { perHostDay: 0.004, arrivals: "weibull", weibullShape: shape },
          },
          9,
        ),
      ),
      { unit: "seconds" },
    ),
    { hosts: 400 },
  );

describe("the arrivals in plain words", () => {
  it("an interval wholly below 1 reads bursty, with the share of short gaps seen and at random", () => {
    const fit = fitOf(0.5);
    const w = arrivalWords(fit)!;
    expect(fit.weibull!.shapeHi).toBeLessThan(1);
    expect(w.headline).toBe("Bursty: failures cluster.");
    const gaps = shortGaps(fit)!;
    expect(gaps.seen).toBeGreaterThan(gaps.random);
    expect(w.detail).toContain("right after a failure the next one comes sooner than at random");
    // For this fleet, without the word Weibull: the short gaps seen against random, said once.
    const share = (x: number) => `${x < 0.1 ? (100 * x).toFixed(1) : Math.round(100 * x)} %`;
    expect(w.fleet).toContain(
      `On this fleet, ${share(gaps.seen)} of failures came less than an hour after the one before`,
    );
    expect(w.fleet).toContain(`it would be ${share(gaps.random)}`);
    expect(w.fleet).not.toContain("Weibull");
    expect(w.detail).not.toContain("under an hour");
  });

  it("wholly above 1 reads regular; around 1 reads random", () => {
    expect(arrivalWords(fitOf(2))!.headline).toBe("Regular: failures come more evenly than at random.");
    const random = fitOf(1);
    expect(random.weibull!.shapeLo).toBeLessThan(1);
    expect(arrivalWords(random)!.headline).toBe("No sign of bursts: failures look random.");
    expect(arrivalWords(random)!.fleet).toBeNull();
  });

  it("durations in the unit a person says", () => {
    expect(durationWords(1800)).toBe("30 minutes");
    expect(durationWords(16 * 3600)).toBe("16 hours");
    expect(durationWords(5 * 86_400)).toBe("5 days");
  });
});

describe("a drift p-value as written", () => {
  it("is scientific past 1e-4, not a row of zeros; plain above", () => {
    expect(pValueText(1.9e-17, 2, true)).toBe("1.9 × 10⁻¹⁷");
    expect(pValueText(1.9e-17, 3)).toBe("1.9e-17");
    expect(pValueText(3.21e-5, 2)).toBe("3.2e-5");
    expect(pValueText(0.0123, 2)).toBe("0.012");
    expect(pValueText(0.5, 2)).toBe("0.5");
    const fit = { drift: { windows: [10, 90], pValue: 1.9e-17 } } as LogFit;
    expect(driftWords(fit)).toBe(
      "The rate changed over the log (chi-square p = 1.9 × 10⁻¹⁷): one rate is an average over calmer and busier months.",
    );
    expect(driftWords(fit)).not.toContain("0.0000");
  });
});

describe("the fit's headings and notes", () => {
  it("says Causes, not Causes (by cause); another column is named; a note's reason starts a sentence", () => {
    expect(causesTerm("cause")).toBe("Causes");
    expect(causesTerm("Class")).toBe("Causes (by Class)");
    expect(sentence("the window is shorter than 60 days")).toBe("The window is shorter than 60 days");
  });
});
