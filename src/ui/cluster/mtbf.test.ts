import { describe, expect, it } from "vitest";
import { MAX_MTBF_MINUTES, mtbfProblem } from "./mtbf.ts";

describe("the Job MTBF knob", () => {
  it("refuses an MTBF whose rate overflows or underflows, saying what was typed and the range", () => {
    const tiny = mtbfProblem(1e-320, 12_288);
    expect(tiny).toMatch(
      /^Job MTBF: 1e-320 min is refused: .* MTBF in \[0\.0117, 1,000,000,000\] minutes for 12,288 hosts/,
    );
    const huge = mtbfProblem(1e308, 12_288);
    expect(huge).toMatch(/^Job MTBF: 1e\+308 min is refused/);
    for (const m of [tiny, huge, mtbfProblem(0, 12_288), mtbfProblem(Number.NaN, 1)])
      expect(m).not.toMatch(/got (NaN|Infinity)/);
  });

  it("takes every MTBF whose rate the scenario takes", () => {
    expect(mtbfProblem(432, 12_288)).toBeNull();
    expect(mtbfProblem(MAX_MTBF_MINUTES, 1)).toBeNull();
    expect(mtbfProblem(1440 / (12_288 * 10), 12_288)).toBeNull();
  });
});
