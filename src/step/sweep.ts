/** Step time against bucket_cap_mb: where the latency of many small buckets meets the exposed tail of a few big ones. */
import type { Param } from "./modelList.ts";
import { runStep, type StepConfig } from "./stepTimeline.ts";

export const SWEEP_MIN_MB = 0.5;
export const SWEEP_MAX_MB = 512;
export const SWEEP_SIZES = 40;

export interface SweepPoint {
  capMb: number;
  stepMs: number;
  exposedCommMs: number;
  bucketCount: number;
}

export interface SweepResult {
  points: SweepPoint[];
  /** Index of the fastest cap (the smallest of equals). */
  best: number;
}

/** `count` caps spaced evenly on a log scale from `min` to `max` MiB, both ends included. */
export function logSpacedCaps(min = SWEEP_MIN_MB, max = SWEEP_MAX_MB, count = SWEEP_SIZES): number[] {
  const ratio = Math.log(max / min);
  return Array.from({ length: count }, (_, k) => min * Math.exp((ratio * k) / (count - 1)));
}

export function sweepBucketCap(
  params: readonly Param[],
  config: StepConfig,
  caps = logSpacedCaps(),
): SweepResult {
  const points = caps.map((capMb) => {
    const { metrics } = runStep(params, { ...config, capMb });
    return {
      capMb,
      stepMs: metrics.stepMs,
      exposedCommMs: metrics.exposedCommMs,
      bucketCount: metrics.bucketCount,
    };
  });
  let best = 0;
  points.forEach((p, i) => {
    if (p.stepMs < (points[best] as SweepPoint).stepMs) best = i;
  });
  return { points, best };
}
