/**
 * The bucket slider's end is the cap its label names, and its steps are round
 * figures a sensible ratio apart (it ended at 510 MiB under "512 MiB", and stepped 0.01 MiB near
 * 0.5 MiB).
 */
import { describe, expect, it } from "vitest";
import { STEP_RANGES } from "../../step/stepRanges.ts";
import { CAP_LADDER, CAP_STOPS, capToSlider, nextCap, sliderToCap } from "./capLadder.ts";
import { mib } from "./units.ts";

describe("the bucket_cap_mb slider", () => {
  it("ends exactly at the range its labels name, which the link takes too", () => {
    expect(sliderToCap(0)).toBe(STEP_RANGES.capMb.min);
    expect(sliderToCap(CAP_STOPS)).toBe(STEP_RANGES.capMb.max);
    expect(`${mib(sliderToCap(CAP_STOPS))} MiB`).toBe("512 MiB");
  });

  it("steps between 10 % and 35 % at a time, everywhere, in round figures", () => {
    for (let i = 1; i <= CAP_STOPS; i++) {
      const ratio = sliderToCap(i) / sliderToCap(i - 1);
      expect(ratio).toBeGreaterThanOrEqual(1.1);
      expect(ratio).toBeLessThanOrEqual(1.35);
      // Round: at most two significant digits (512 is the range's own end).
      const cap = sliderToCap(i);
      if (i < CAP_STOPS) expect(Number(cap.toPrecision(2))).toBe(cap);
    }
    // Near the bottom a step is at least 0.1 MiB, not 0.01.
    expect(sliderToCap(1) - sliderToCap(0)).toBeGreaterThan(0.099);
  });

  it("has PyTorch's default 25 MiB as a stop", () => {
    expect(sliderToCap(capToSlider(25))).toBe(25);
  });

  it("every stop maps back to itself; arrow keys reach the next stop from a cap between stops", () => {
    for (let i = 0; i <= CAP_STOPS; i++) expect(capToSlider(sliderToCap(i))).toBe(i);
    expect(nextCap(7, 1)).toBe(8);
    expect(nextCap(7, -1)).toBe(6);
    expect(nextCap(512, 1)).toBe(512);
    expect(nextCap(0.5, -1)).toBe(0.5);
    expect(CAP_LADDER).toEqual([...CAP_LADDER].sort((a, b) => a - b));
  });
});
