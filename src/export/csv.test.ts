import { describe, expect, it } from "vitest";
import { closedForms } from "../sim/closedForms/closedForms.ts";
import { SUMMARIZED_METRICS } from "../sim/monteCarlo/monteCarlo.ts";
import { DEFAULT_SCENARIO } from "../sim/scenario/index.ts";
import { axisInfo } from "../sim/sweep/index.ts";
import {
  BADPUT_CATEGORIES,
  type BadputCategory,
  type MetricsSummary,
  type MonteCarloResult,
  type PerPolicy,
  type SummarizedMetric,
  type Summary,
} from "../sim/types.ts";
import { csvField, sweepCsv, toCsv } from "./csv.ts";

describe("csv", () => {
  it("quotes fields that hold commas, quotes, line breaks or edge spaces, doubling quotes", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField(" pad")).toBe('" pad"');
    expect(csvField(0.1 + 0.2)).toBe("0.30000000000000004");
    expect(csvField(null)).toBe("");
    expect(csvField(Number.NaN)).toBe("");
  });

  it("joins rows with CRLF and ends with one", () => {
    expect(toCsv(["a", "b"], [[1, "x,y"]])).toBe('a,b\r\n1,"x,y"\r\n');
  });

  it("writes one row per sweep point with both policies' ETTR band", () => {
    const band = (m: number) => ({ mean: m, p5: m - 0.01, p95: m + 0.01 });
    const summary = (m: number): MetricsSummary => ({
      ...(Object.fromEntries(SUMMARIZED_METRICS.map((k) => [k, band(m)])) as Record<
        SummarizedMetric,
        Summary
      >),
      causes: [],
      badput: Object.fromEntries(BADPUT_CATEGORIES.map((k, i) => [k, band(i / 100)])) as Record<
        BadputCategory,
        Summary
      >,
    });
    const mc = (gpus: number): MonteCarloResult =>
      Object.assign(
        { scenario: { ...DEFAULT_SCENARIO, cluster: { ...DEFAULT_SCENARIO.cluster, gpus } }, seeds: 200 },
        { synchronous: summary(0.5), ftHsdp: summary(0.8) } as PerPolicy<MetricsSummary>,
        { closedForm: closedForms(DEFAULT_SCENARIO) },
      );
    const text = sweepCsv(axisInfo("gpus"), [
      { x: 960, mc: mc(960) },
      { x: 1920, mc: mc(1920) },
    ]);
    const lines = text.trimEnd().split("\r\n");
    expect(lines).toHaveLength(3);
    // The header is a public contract: the policies' columns keep their v1 names and order.
    expect(
      lines[0]?.startsWith(
        "Cluster size (GPUs),gpus,replicas,failures_per_host_day,job_mtbf_minutes,seeds," +
          "sync_ettr_mean,sync_ettr_p5,sync_ettr_p95,ft_hsdp_ettr_mean,ft_hsdp_ettr_p5,ft_hsdp_ettr_p95,scenario_json,",
      ),
    ).toBe(true);
    // Then each policy's mean badput shares (§4), after the scenario so no earlier column moves.
    expect(lines[0]?.split(",").slice(13)).toEqual([
      ...BADPUT_CATEGORIES.map((b) => `sync_badput_${b}_mean`),
      ...BADPUT_CATEGORIES.map((b) => `ft_hsdp_badput_${b}_mean`),
    ]);
    expect(
      lines[1]?.endsWith(
        `,0,0.01,0.02,0.03,0.04,0.05,0.06,0.07,0.08,0.09,0.1,0,0.01,0.02,0.03,0.04,0.05,0.06,0.07,0.08,0.09,0.1`,
      ),
    ).toBe(true);
    expect(lines[1]?.split(",").slice(0, 3)).toEqual(["960", "960", "12"]);
    expect(lines[2]).toContain(",200,0.5,0.49,0.51,0.8,");
    // The scenario JSON has commas and quotes: it must come back whole from an RFC 4180 reader.
    const quoted = lines[1]?.slice(lines[1].indexOf('"{'), lines[1].indexOf('}",') + 2);
    expect(JSON.parse((quoted ?? "").slice(1, -1).replace(/""/g, '"')).cluster.gpus).toBe(960);
  });
});
