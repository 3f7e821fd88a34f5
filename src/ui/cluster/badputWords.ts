/**
 * The words and figures of "Where the time goes" (docs/model.md §4), apart from the bars
 * (BadputBars.tsx) so tests and the story's sentences read them without loading any CSS or React.
 */
import { type Policy, selectedPolicies } from "../../sim/policies/index.ts";
import {
  BADPUT_CATEGORIES,
  type BadputCategory,
  type PolicyMetrics,
  type RunResult,
} from "../../sim/types.ts";
import { count, pct } from "../format.ts";

/** A segment of a bar: the useful share, or a badput category. */
export type Segment = "useful" | BadputCategory;

/** Each segment's name, and what it counts (the words of docs/model.md §4). */
export const SEGMENT_TEXT: Record<Segment, { name: string; what: string }> = {
  useful: { name: "Useful training", what: "training kept (ETTR)" },
  detection: { name: "Detection", what: "stalled until a failure is found (detect, FTAR's reconfigure)" },
  recovery: { name: "Recovery", what: "restart, reschedule, migration, job restart" },
  spareWait: { name: "Waiting for spares", what: "stalled waiting for replacement hosts" },
  rejoin: { name: "Rejoin", what: "FT-HSDP's rejoin and blocking catch-up stalls" },
  checkpointWrite: { name: "Checkpoint writes", what: "blocking writes, persistent and in-memory" },
  rolledBack: { name: "Rolled back", what: "training done and later lost to a rollback" },
  degraded: { name: "Degraded", what: "capacity lost to missing replicas while training" },
  overhead: { name: "Step overhead", what: "FT-HSDP's slower all-reduce (FTAR)" },
  slow: { name: "Slow hosts", what: "training at a slow host's pace (every step waits for the slowest)" },
  outerSync: {
    name: "Outer sync",
    what: "DiLoCo's replicas blocked after their round's steps until the next round (the sync, slower participants)",
  },
  convergence: {
    name: "Convergence",
    what: "DiLoCo's inner steps worth less than synchronous ones: (1 − q) of the steps kept",
  },
};

export const SEGMENTS: readonly Segment[] = ["useful", ...BADPUT_CATEGORIES];

export interface BadputRow {
  policy: Policy;
  metrics: PolicyMetrics;
}

/** "35.4 M" for a large count: GPU-hours and dollars on a 100K-GPU cluster run to tens of millions. */
export function compact(n: number): string {
  const a = Math.abs(n);
  if (a >= 1e9) return `${count(n / 1e9, 2)} B`;
  if (a >= 1e6) return `${count(n / 1e6, 2)} M`;
  if (a >= 1e4) return `${count(n / 1e3, 1)} K`;
  return count(n, a < 10 ? 2 : 0);
}

/** Lost GPU-hours (docs/model.md §4): the wall time not turned into training, on every GPU. */
export function lostGpuHours(ettr: number, gpus: number, days: number): number {
  return (1 - ettr) * gpus * days * 24;
}

/** A segment's share of wall time in a run. */
export function share(m: PolicyMetrics, seg: Segment): number {
  return seg === "useful" ? m.ettr : m.badput[seg];
}

/** A segment's words: name, share, wall hours and GPU-hours. */
export function segmentText(seg: Segment, s: number, gpus: number, days: number): string {
  const hours = s * days * 24;
  const what = SEGMENT_TEXT[seg].what;
  // A sentence of its own after the figures: it starts with a capital.
  return `${SEGMENT_TEXT[seg].name}: ${pct(s)} of wall time, ${count(hours, hours < 10 ? 2 : 1)} h (${compact(hours * gpus)} GPU-hours). ${what[0]?.toUpperCase()}${what.slice(1)}.`;
}

/** A run's selected policies with their metrics, in display order. */
export function strategyRows(run: RunResult): BadputRow[] {
  const rows: BadputRow[] = [];
  for (const policy of selectedPolicies(run.scenario)) {
    const metrics = run[policy.key];
    if (metrics) rows.push({ policy, metrics });
  }
  return rows;
}

/** A policy's largest badput category in a run. */
export function largestLoss(m: PolicyMetrics): BadputCategory {
  let best: BadputCategory = BADPUT_CATEGORIES[0];
  for (const c of BADPUT_CATEGORIES) if (m.badput[c] > m.badput[best]) best = c;
  return best;
}

const lossWords = (m: PolicyMetrics) => {
  const c = largestLoss(m);
  return `${SEGMENT_TEXT[c].name.toLowerCase()} (${pct(m.badput[c])})`;
};

/** What a set of bars shows, in words, read from the runs: who keeps the most and the least, and why. */
export function strategySentence(label: string, rows: readonly BadputRow[]): string {
  const sorted = [...rows].sort((a, b) => b.metrics.ettr - a.metrics.ettr);
  const best = sorted[0];
  const worst = sorted[sorted.length - 1];
  if (!best || !worst || best === worst) return "";
  const name = (p: Policy) => p.label;
  return `${label}: ${name(best.policy)} keeps the most of the wall time (${pct(best.metrics.ettr)}), ${name(worst.policy)} the least (${pct(worst.metrics.ettr)}). ${name(worst.policy)}'s largest loss is ${lossWords(worst.metrics)}; ${name(best.policy)}'s is ${lossWords(best.metrics)}.`;
}
