import { describe, expect, it } from "vitest";
import { inSentence, sweepPartialWords, sweepPeak, sweepPeakWords } from "./sweepPeak.ts";

const at = (x: number) => `${x} min`;
const xs = [1, 6.787, 17.68, 120];

describe("where a sweep's curve peaks", () => {
  it("finds an interior peak above both ends, by how much", () => {
    expect(sweepPeak([0.78, 0.81, 0.82, 0.8])).toEqual({
      best: 2,
      interior: true,
      aboveFirst: expect.closeTo(0.04, 10),
      aboveLast: expect.closeTo(0.02, 10),
    });
    expect(sweepPeakWords("FT-HSDP", [0.7833, 0.8143, 0.8231, 0.8032], xs, at, false)).toBe(
      "FT-HSDP is best at 17.68 min: 82.3 %, above both ends (by 4.0 points at 1 min, by 2.0 points at 120 min).",
    );
  });

  it("says when the best is an end, and compares it with the other end", () => {
    expect(sweepPeakWords("Synchronous", [0.7, 0.72, 0.75, 0.76], xs, at, false)).toBe(
      "Synchronous is best at 120 min: 76.0 %, the high end of the range (6.0 points above 1 min).",
    );
    expect(sweepPeakWords("FT-HSDP", [0.703, 0.69, 0.65, 0.692], xs, at, false)).toBe(
      "FT-HSDP is best at 1 min: 70.3 %, the low end of the range (1.1 points above 120 min).",
    );
  });

  it("takes the first of equal means, and calls nothing interior that ties an end", () => {
    expect(sweepPeak([0.8, 0.8, 0.7])).toMatchObject({ best: 0, interior: false });
    expect(sweepPeak([0.7, 0.8, 0.8])).toMatchObject({ best: 1, interior: false });
    expect(sweepPeakWords("FT-HSDP", [0.7, 0.8, 0.8], [1, 2, 3], at, false)).toBe(
      "FT-HSDP is best at 2 min: 80.0 %, level with the high end (3 min).",
    );
  });

  it("names no best for a curve the axis does not move (Synchronous along DiLoCo's round length)", () => {
    expect(sweepPeakWords("Synchronous", [0.036, 0.036, 0.036], [1, 32, 1000], at, false)).toBe(
      "Synchronous does not move along this axis: 3.6 % at every point.",
    );
    expect(sweepPeakWords("Synchronous", [0.036, 0.036], [1, 32], at, false, true)).toBe(
      "Synchronous does not move along this axis: 3.6 % at every point done.",
    );
    // One ulp apart is a difference the sentence reports as it always did.
    expect(sweepPeakWords("FT-HSDP", [0.5, 0.5 + 2 ** -53], [1, 2], at, false)).toMatch(
      /^FT-HSDP is best at 2 min/,
    );
  });

  it("on a category axis names the best category only; nothing for one point or a missing mean", () => {
    expect(sweepPeakWords("FT-HSDP", [0.6, 0.7], [0, 1], (i) => ["packed", "striped"][i] ?? "", true)).toBe(
      "FT-HSDP is best at striped: 70.0 %.",
    );
    expect(sweepPeak([0.5])).toBeNull();
    expect(sweepPeak([0.5, Number.NaN])).toBeNull();
  });
});

describe("a sweep's peak while it runs or after Cancel", () => {
  // The Greyhound evict-after sweep at 37 %: the points done so far, the first of them the best.
  it("says it is of the points done, and calls no point done an end of the range", () => {
    const words = sweepPeakWords("Synchronous", [0.336, 0.33, 0.31], [1, 1.29, 1.66], at, false, true);
    expect(words).toBe(
      "Synchronous is best so far at 1 min: 33.6 %, the lowest value done (2.6 points above 1.66 min).",
    );
    expect(words).not.toContain("range");
    expect(sweepPeakWords("FT-HSDP", [0.7, 0.8, 0.75], [1, 2, 3], at, false, true)).toBe(
      "FT-HSDP is best so far at 2 min: 80.0 %, above the lowest and highest values done (by 10.0 points at 1 min, by 5.0 points at 3 min).",
    );
    expect(sweepPartialWords(7, 20, "running")).toBe(
      "Of the 7 points done out of 20 (the sweep is running), not the whole range:",
    );
    expect(sweepPartialWords(12, 20, "cancelled")).toContain("the sweep was cancelled");
    expect(sweepPartialWords(20, 20, "done")).toBeNull();
  });
});

describe("a knob's label inside a sentence", () => {
  it("lowers the first letter only, and keeps an acronym whole", () => {
    expect(inSentence("Sync every (H)")).toBe("sync every (H)");
    expect(inSentence("Cluster size (GPUs)")).toBe("cluster size (GPUs)");
    expect(inSentence("FT-HSDP: Replica restart")).toBe("FT-HSDP: Replica restart");
    expect(inSentence("MTBF")).toBe("MTBF");
    expect(inSentence("")).toBe("");
  });
});
