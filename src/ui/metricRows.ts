/**
 * How the views name and format each summarized metric: one table, read by the metrics panel
 * (every row) and the results cards (a few rows, and each policy's cardMetric), so a metric reads
 * the same everywhere.
 */
import type { PolicyMetrics, SummarizedMetric } from "../sim/types.ts";
import { count, duration, pct } from "./format.ts";

export interface MetricRow {
  metric: SummarizedMetric;
  label: string;
  /** A short note beside the label ("" for none). */
  help: string;
  fmt: (v: number) => string;
  /** §7: a round's metric, shown only when a strategy on screen trains in rounds (DiLoCo). */
  rounds?: true;
}

const whole = (v: number) => count(v);

function row(metric: SummarizedMetric, label: string, fmt: (v: number) => string, help = ""): MetricRow {
  return { metric, label, help, fmt };
}

/** Every summarized metric the views show, in the metrics table's order. */
export const METRIC_ROWS: readonly MetricRow[] = [
  row("ettr", "ETTR", (v) => pct(v), "useful training ÷ wall time"),
  row("failures", "Failures", whole, "one failure trace, shared by every strategy shown"),
  row("stallSecondsPerFailure", "Stall per failure", duration, "whole job making no progress"),
  row("stallSeconds", "Total stall", duration),
  row(
    "lostWorkSeconds",
    "Lost work",
    duration,
    "training rolled back to a checkpoint (FT-HSDP: at job restarts only)",
  ),
  row("degradedSeconds", "Degraded time", duration, "training with a replica down"),
  row("meanHealthyReplicas", "Mean healthy replicas", (v) => count(v, 2), "time average"),
  row("checkpoints", "Checkpoints", whole),
  row("jobRestarts", "Job restarts", whole, "sync: every failure; FT-HSDP: job-scope failures"),
  row("spareWaitSeconds", "Spare waits", duration, "sync: job waiting; FT-HSDP: replica-time waiting"),
  row("longestSpareWaitSeconds", "Longest spare wait", duration),
  row("poolEmptySeconds", "Pool empty", duration, "time with no spare host"),
  row("slowEpisodes", "Slow episodes", whole, "hosts alive but slow (same for every policy)"),
  row("evictions", "Evictions", whole, "slow hosts dropped, counted among the failures"),
  { ...row("roundsCommitted", "Rounds committed", whole, "DiLoCo: outer syncs that landed"), rounds: true },
  {
    ...row(
      "roundsDiscarded",
      "Rounds discarded",
      whole,
      "DiLoCo: a failure in the sync, a job restart, or every participant lost",
    ),
    rounds: true,
  },
  {
    ...row(
      "meanParticipants",
      "Participants per round",
      (v) => count(v, 2),
      "DiLoCo: mean over rounds begun",
    ),
    rounds: true,
  },
];

/** Whether a run has rounds: a strategy on screen trains semi-synchronously. */
export function hasRounds(metrics: readonly (PolicyMetrics | undefined)[]): boolean {
  return metrics.some((m) => m !== undefined && m.roundsCommitted + m.roundsDiscarded > 0);
}

/** The row of one metric (every SummarizedMetric has one: metricRows.test.ts). */
export function metricRow(metric: SummarizedMetric): MetricRow {
  const r = METRIC_ROWS.find((x) => x.metric === metric);
  if (!r) throw new RangeError(`no row for metric ${metric}`);
  return r;
}
