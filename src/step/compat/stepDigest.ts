/**
 * A step's result as step-recorded.json holds it (scripts/record-step-compat.ts): forward,
 * optimizer, the first 12 reductions and the last in full, and sums over every gradient and
 * reduction (a small cap on Llama makes thousands of them), with both timelines' metrics.
 */
import type { StepResult, StepTimeline } from "../stepTimeline.ts";

const sum = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0);

function timelineDigest(t: StepTimeline) {
  return {
    forward: t.forward,
    backwardCount: t.backward.length,
    backwardLast: t.backward.at(-1) ?? null,
    backwardEndSum: sum(t.backward.map((b) => b.end)),
    commCount: t.comm.length,
    commFirst: t.comm.slice(0, 12),
    commLast: t.comm.at(-1) ?? null,
    commSums: {
      ready: sum(t.comm.map((c) => c.ready)),
      start: sum(t.comm.map((c) => c.start)),
      end: sum(t.comm.map((c) => c.end)),
      algbw: sum(t.comm.map((c) => c.algbw)),
      busbw: sum(t.comm.map((c) => c.busbw)),
    },
    optimizer: t.optimizer,
  };
}

export function stepDigest(r: StepResult) {
  return {
    bucketCount: r.buckets.length,
    bucketBytes: sum(r.buckets.map((b) => b.bytes)),
    overlapped: timelineDigest(r.overlapped),
    baseline: timelineDigest(r.baseline),
    metrics: r.metrics,
    baselineMetrics: r.baselineMetrics,
  };
}
