import { describe, expect, it } from "vitest";
import { parseScenario } from "../../sim/scenario/index.ts";
import { baselineAxisWords } from "./baselineAxis.ts";

const of = (days: number) => parseScenario({ training: { days } });

describe("baselineAxisWords: what the stacked baseline timeline shows of its run", () => {
  it("one axis when both run as long", () => {
    expect(baselineAxisWords(of(3), of(3))).toBe(
      "Both run 3 days on one time axis: zoom or pan on either moves both.",
    );
  });
  it("a longer baseline is cut at this scenario's horizon, by the difference", () => {
    expect(baselineAxisWords(of(14), of(7))).toContain("the baseline's last 7 days are not shown");
    expect(baselineAxisWords(of(4), of(3))).toContain("the baseline's last 1 day is not shown");
  });
  it("a shorter baseline ends early, at its own length", () => {
    expect(baselineAxisWords(of(2.5), of(7))).toContain(
      "The baseline runs 2.50 days, this scenario 7 days: on this scenario's axis the baseline's timeline ends at day 2.50",
    );
  });
});
