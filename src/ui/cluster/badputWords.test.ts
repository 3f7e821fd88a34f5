import { describe, expect, it } from "vitest";
import { runScenario } from "../../sim/engine.ts";
import { presetById } from "../../sim/presets.ts";
import { parseScenario } from "../../sim/scenario/index.ts";
import { BADPUT_CATEGORIES } from "../../sim/types.ts";
import {
  compact,
  largestLoss,
  lostGpuHours,
  segmentText,
  strategyRows,
  strategySentence,
} from "./badputWords.ts";

describe("where the time goes, in words", () => {
  const s = parseScenario(presetById("four-strategies")?.scenario);
  const run = runScenario(s);
  const rows = strategyRows(run);

  it("has a row per selected policy, in the scenario's order, each summing to the whole wall time", () => {
    expect(rows.map((r) => r.policy.key)).toEqual(s.policies);
    for (const { metrics } of rows) {
      const sum = metrics.ettr + BADPUT_CATEGORIES.reduce((a, c) => a + metrics.badput[c], 0);
      expect(sum).toBeCloseTo(1, 9);
    }
  });

  it("lost GPU-hours are (1 − ETTR) × GPUs × hours", () => {
    expect(lostGpuHours(0.75, 1000, 2)).toBe(0.25 * 1000 * 48);
    expect(compact(12_480_000)).toBe("12.48 M");
    expect(compact(869_200)).toBe("869.2 K");
    expect(compact(361)).toBe("361");
    expect(compact(2.5)).toBe("2.50");
  });

  it("the sentence names the strategies that keep the most and the least, and their largest losses", () => {
    const best = rows.reduce((a, b) => (b.metrics.ettr > a.metrics.ettr ? b : a));
    const worst = rows.reduce((a, b) => (b.metrics.ettr < a.metrics.ettr ? b : a));
    const text = strategySentence("Here", rows);
    expect(text).toContain(`Here: ${best.policy.label} keeps the most`);
    expect(text).toContain(`${worst.policy.label} the least`);
    const loss = largestLoss(worst.metrics);
    for (const c of BADPUT_CATEGORIES)
      expect(worst.metrics.badput[c]).toBeLessThanOrEqual(worst.metrics.badput[loss]);
  });
});

describe("a segment's words", () => {
  it("name the slow hosts' share (§6) and say what it counts, as a sentence of its own", () => {
    expect(segmentText("slow", 0.25, 8, 1)).toBe(
      "Slow hosts: 25.0% of wall time, 6.00 h (48 GPU-hours). Training at a slow host's pace (every step waits for the slowest).",
    );
  });
});
