/**
 * CSV (RFC 4180): comma-separated, CRLF line ends, fields quoted when they hold a comma, a quote,
 * a line break or edge spaces, quotes doubled. Numbers keep full precision.
 */

import { derived } from "../sim/scenario.ts";
import type { SweepAxisInfo } from "../sim/sweep.ts";
import type { MonteCarloResult } from "../sim/types.ts";

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

/** One row per sweep point: the swept value, the scenario's shape, both policies' ETTR band. */
export function sweepCsv(axis: SweepAxisInfo, rows: readonly SweepCsvRow[]): string {
  const header = [
    `${axis.label}${axis.unit ? ` (${axis.unit})` : ""}`,
    "gpus",
    "replicas",
    "failures_per_host_day",
    "job_mtbf_minutes",
    "seeds",
    "sync_ettr_mean",
    "sync_ettr_p5",
    "sync_ettr_p95",
    "ft_hsdp_ettr_mean",
    "ft_hsdp_ettr_p5",
    "ft_hsdp_ettr_p95",
    "scenario_json",
  ];
  const body = rows.map(({ x, mc }) => {
    const s = mc.scenario;
    const { synchronous: sy, ftHsdp: ft } = mc;
    return [
      x,
      s.cluster.gpus,
      s.cluster.replicas,
      s.failures.perHostDay,
      derived(s).mtbfSeconds / 60,
      mc.seeds,
      sy.ettr.mean,
      sy.ettr.p5,
      sy.ettr.p95,
      ft.ettr.mean,
      ft.ettr.p5,
      ft.ettr.p95,
      JSON.stringify(s),
    ];
  });
  return toCsv(header, body);
}
