import { describe, expect, it } from "vitest";
import { SUMMARIZED_METRICS } from "../sim/monteCarlo/mcSummary.ts";
import { METRIC_ROWS, metricRow } from "./metricRows.ts";

describe("the metric rows", () => {
  it("name every metric the engine summarizes: a strategy's card metric never finds no row", () => {
    // DiLoCo's card metric (roundsDiscarded) had no row, and picking DiLoCo stopped the results.
    for (const m of SUMMARIZED_METRICS) expect(() => metricRow(m), m).not.toThrow();
    expect(new Set(METRIC_ROWS.map((r) => r.metric)).size).toBe(METRIC_ROWS.length);
  });
});
