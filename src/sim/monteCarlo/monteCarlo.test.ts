import { describe, expect, it } from "vitest";
import { runScenario } from "../engine.ts";
import { parseScenario } from "../scenario/index.ts";
import { monteCarlo } from "./monteCarlo.ts";

describe("Monte Carlo summaries", () => {
  // About 0.7 failures per run: many seeds see none at all.
  const s = parseScenario({ training: { days: 0.01 }, failures: { perHostDay: 0.0065 } });
  const seeds = 120;
  const runs = Array.from({ length: seeds }, (_, i) => runScenario(s, { seed: (s.seed + i) >>> 0 }));

  it("stall per failure averages the runs that had failures, not the quiet ones as zeros", () => {
    const withFailures = runs.filter((r) => r.synchronous!.failures > 0);
    expect(withFailures.length).toBeGreaterThan(10);
    expect(withFailures.length).toBeLessThan(seeds);
    const mc = monteCarlo(s, seeds);
    for (const policy of ["synchronous", "ftHsdp"] as const) {
      const expected =
        withFailures.reduce((a, r) => a + r[policy]!.stallSecondsPerFailure, 0) / withFailures.length;
      expect(mc[policy]!.stallSecondsPerFailure.mean).toBeCloseTo(expected, 9);
    }
    // Each failure stalls the synchronous job for at most detect + restart = 600 s, and a lone one for all of it.
    expect(mc.synchronous!.stallSecondsPerFailure.p95).toBeLessThanOrEqual(600);
    expect(mc.synchronous!.stallSecondsPerFailure.mean).toBeGreaterThan(300);
  });

  it("other metrics average every run", () => {
    const mc = monteCarlo(s, seeds);
    const meanFailures = runs.reduce((a, r) => a + r.synchronous!.failures, 0) / seeds;
    expect(mc.synchronous!.failures.mean).toBeCloseTo(meanFailures, 9);
  });
});
