/**
 * A claim row in words, the same in the Papers view and `npm run papers`: values in the unit the
 * source uses, the model's interval, and the verdict computed from them.
 */
import type { ClaimMetric, ClaimRow, ModelValue } from "./claimTypes.ts";

/** Decimals that resolve the metric's typical intervals (tenths of a point, hundredths of an hour). */
function decimals(metric: ClaimMetric): number {
  if (metric.kind === "slowdown") return 3;
  if (metric.kind === "mtbf" && metric.unit === "hours") return 2;
  return 1;
}

export function unitOf(metric: ClaimMetric): string {
  switch (metric.kind) {
    case "ettr":
    case "causeShare":
      return " %";
    case "stallMinutes":
      return " min";
    case "mtbf":
      return metric.unit === "hours" ? " h" : " min";
    case "slowdown":
      return "×";
  }
}

/** How the verdict's distance reads: points of a percentage, else the unit. */
function distanceUnit(metric: ClaimMetric): string {
  return metric.kind === "ettr" || metric.kind === "causeShare" ? " points" : unitOf(metric);
}

export function valueText(metric: ClaimMetric, v: number): string {
  return `${v.toFixed(decimals(metric))}${unitOf(metric)}`;
}

/**
 * "57.4 % ± 0.1 (400 runs)". A half-width below the value's decimals is shown to its first
 * significant digit (± 0.03), never rounded to nothing; runs that all gave the same value say so.
 */
export function modelText(metric: ClaimMetric, m: ModelValue): string {
  const runs = `${m.runs.toLocaleString("en-US")} runs`;
  // A spread below a millionth of the value is the floating-point noise of equal runs.
  if (m.half <= Math.abs(m.mean) * 1e-9) return `${valueText(metric, m.mean)} (${runs}, all equal)`;
  const d = Math.max(decimals(metric), Math.min(6, -Math.floor(Math.log10(m.half))));
  return `${valueText(metric, m.mean)} ± ${m.half.toFixed(d)} (${runs})`;
}

/** The interval the published figure is read as, in the value's decimals plus one. */
export function publishedRange(row: ClaimRow): string {
  const { metric, published } = row.claim;
  const d = decimals(metric) + 1;
  return `${published.low.toFixed(d)}–${published.high.toFixed(d)}${unitOf(metric)}`;
}

/** The verdict in a few words: within the published interval, or off by how much. */
export function verdictText(row: ClaimRow): string {
  const { verdict, claim } = row;
  if (verdict.kind === "within") return claim.calibrated ? "within (calibrated)" : "within";
  const by = verdict.by.toFixed(decimals(claim.metric));
  return `off by ${by}${distanceUnit(claim.metric)} (${verdict.side})`;
}

/** What the row adds below the verdict: why it is off, or why agreement proves little. */
export function verdictNote(row: ClaimRow): string {
  if (row.verdict.kind === "off") return row.claim.whyOff;
  return row.claim.calibrated ? `Calibrated: ${row.claim.calibrated}.` : "";
}
