/**
 * The step model (stepTimeline.ts) run on what one measured step holds, to put its prediction
 * beside the measurement: the same all-reduce sizes, in the order the trace ran them, each its
 * own bucket, and the step's measured compute split at its backward window (forward before it,
 * backward inside it, the optimizer after it). Times are ms from the step's start.
 */
import type { Link } from "../collectiveCost.ts";
import { type Interval, mergeIntervals, totalLength } from "../intervals.ts";
import type { Param } from "../modelList.ts";
import { runStep, type StepConfig } from "../stepTimeline.ts";
import { collectiveOf } from "./kernelClass.ts";
import type { RankFigures } from "./measure.ts";

export interface BucketSpan {
  bytes: number;
  start: number;
  end: number;
}

export interface StepSide {
  stepMs: number;
  commMs: number;
  /** Comm under compute ÷ comm, percent (null without communication). */
  overlapPct: number | null;
  buckets: BucketSpan[];
  /** Compute spans (ms from the step's start). */
  compute: Interval[];
}

export interface ModelBeside {
  step: string;
  measured: StepSide;
  predicted: StepSide;
  compute: { forwardMs: number; backwardMs: number; optimizerMs: number };
  /** Predicted − measured. */
  stepErrorMs: number;
  overlapErrorPts: number | null;
  notes: string[];
}

export type BesideResult = { ok: true; beside: ModelBeside } | { ok: false; why: string };

/** Each bucket is its own all-reduce: a cap below any gradient's size. */
const ONE_PER_BUCKET_MB = 1e-9;

export function modelBeside(
  rank: RankFigures,
  stepIndex: number,
  base: StepConfig,
  link: Link,
  worldSize: number,
): BesideResult {
  const w = rank.stepWindows[stepIndex];
  const m = rank.steps[stepIndex];
  if (w === undefined || m === undefined) return { ok: false, why: "no such step" };
  const acts = rank.stepActivities[stepIndex] ?? [];
  const reduces = acts.filter((a) => a.cls === "comm" && collectiveOf(a.name) === "allreduce");
  if (reduces.length === 0) return { ok: false, why: `${m.name} has no all-reduce` };
  if (reduces.some((a) => a.bytes === null)) {
    return {
      ok: false,
      why: `the all-reduces of ${m.name} carry no size (no In msg nelems, no record_param_comms)`,
    };
  }
  const notes: string[] = [];
  const rel = (t: number) => (t - w.start) / 1e3;
  const bw = rank.backward[stepIndex] ?? null;
  if (bw === null) notes.push("no autograd ops in this step: all of its compute counts as backward");
  const compute = acts.filter((a) => a.cls === "compute");
  const part = (keep: (launch: number) => boolean) =>
    totalLength(mergeIntervals(compute.filter((a) => keep(a.launch)))) / 1e3;
  const forwardMs = bw === null ? 0 : part((l) => l < bw.start);
  const backwardMs = bw === null ? part(() => true) : part((l) => l >= bw.start && l <= bw.end);
  const optimizerMs = bw === null ? 0 : part((l) => l > bw.end);
  const sorted = [...reduces].sort((a, b) => a.start - b.start);
  // Gradients are ready in reverse registration order: bucket 0 (the first all-reduced) is the
  // last parameter.
  const params: Param[] = sorted
    .map((a, k) => ({
      name: `bucket ${k}`,
      shape: [(a.bytes as number) / 4],
      dtype: "float32",
      numel: (a.bytes as number) / 4,
      bytes: a.bytes as number,
    }))
    .reverse();
  const config: StepConfig = {
    capMb: ONE_PER_BUCKET_MB,
    firstBucketMb: ONE_PER_BUCKET_MB,
    compute: { forwardMs, backwardMs, optimizerMs },
    parallel: {
      ...base.parallel,
      mode: "ddp",
      gpusPerReplica: worldSize,
      replicas: 1,
      missingReplica: false,
      intraLink: link,
      interLink: link,
    },
  };
  const r = runStep(params, config);
  const t = r.overlapped;
  const predicted: StepSide = {
    stepMs: r.metrics.stepMs,
    commMs: r.metrics.commMs,
    overlapPct: r.metrics.commMs > 0 ? 100 * r.metrics.overlapRatio : null,
    buckets: t.comm.map((c) => ({ bytes: r.buckets[c.bucket]?.bytes ?? 0, start: c.start, end: c.end })),
    compute: [t.forward, { start: t.forward.end, end: t.forward.end + backwardMs }, t.optimizer],
  };
  const measured: StepSide = {
    stepMs: m.ms,
    commMs: m.commMs,
    overlapPct: m.overlapPct,
    buckets: sorted.map((a) => ({ bytes: a.bytes as number, start: rel(a.start), end: rel(a.end) })),
    compute: mergeIntervals(compute).map((s) => ({ start: rel(s.start), end: rel(s.end) })),
  };
  return {
    ok: true,
    beside: {
      step: m.name,
      measured,
      predicted,
      compute: config.compute,
      stepErrorMs: predicted.stepMs - measured.stepMs,
      overlapErrorPts:
        predicted.overlapPct === null || measured.overlapPct === null
          ? null
          : predicted.overlapPct - measured.overlapPct,
      notes,
    },
  };
}
