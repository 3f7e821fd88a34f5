/**
 * CSV (RFC 4180): comma-separated, CRLF line ends, fields quoted when they hold a comma, a quote,
 * a line break or edge spaces, quotes doubled. Numbers keep full precision.
 */

import { selectedPolicies } from "../sim/policies/index.ts";
import { derived } from "../sim/scenario/index.ts";
import type { SweepAxisInfo } from "../sim/sweep/index.ts";
import { BADPUT_CATEGORIES, type MetricsSummary, type MonteCarloResult } from "../sim/types.ts";

export type CsvCell = string | number | null;

export function csvField(v: CsvCell): string {
  if (v === null) return "";
  const s = typeof v === "number" ? (Number.isFinite(v) ? String(v) : "") : v;
  return /[",\r\n]|^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return `${[header, ...rows].map((r) => r.map(csvField).join(",")).join("\r\n")}\r\n`;
}

export interface SweepCsvRow {
  x: number;
  mc: MonteCarloResult;
}

const ETTR_BAND = ["mean", "p5", "p95"] as const;

/**
 * One row per sweep point: the swept value, the scenario's shape, each selected policy's ETTR
 * band (display order), the scenario, then each policy's mean badput shares (docs/model.md §4).
 * The columns up to scenario_json are version 1's, in its order, for the default selection; the
 * badput columns come after it so that no earlier column moves.
 */
export function sweepCsv(axis: SweepAxisInfo, rows: readonly SweepCsvRow[]): string {
  // A sweep varies one field of one scenario: every point selects the same policies.
  const policies = rows.length > 0 ? selectedPolicies(rows[0]!.mc.scenario) : [];
  const header = [
    `${axis.label}${axis.unit ? ` (${axis.unit})` : ""}`,
    "gpus",
    "replicas",
    "failures_per_host_day",
    "job_mtbf_minutes",
    "seeds",
    ...policies.flatMap(({ csvPrefix }) => ETTR_BAND.map((stat) => `${csvPrefix}_ettr_${stat}`)),
    "scenario_json",
    ...policies.flatMap(({ csvPrefix }) => BADPUT_CATEGORIES.map((b) => `${csvPrefix}_badput_${b}_mean`)),
  ];
  const body = rows.map(({ x, mc }) => {
    const s = mc.scenario;
    return [
      // A category's own spelling (the scenario JSON's), not its index on the chart.
      axis.categories?.[x]?.value ?? x,
      s.cluster.gpus,
      s.cluster.replicas,
      s.failures.perHostDay,
      derived(s).mtbfSeconds / 60,
      mc.seeds,
      ...policies.flatMap(({ key }) => ETTR_BAND.map((stat) => (mc[key] as MetricsSummary).ettr[stat])),
      JSON.stringify(s),
      ...policies.flatMap(({ key }) =>
        BADPUT_CATEGORIES.map((b) => (mc[key] as MetricsSummary).badput[b].mean),
      ),
    ];
  });
  return toCsv(header, body);
}
