/**
 * One training step of DDP / HSDP, bucket by bucket (SIMULATION.md §2): forward, backward
 * parameter by parameter in gradient-ready order, each bucket's reduction on one communication
 * stream (`start_i = max(ready_i, end_{i−1})`), then the optimizer, which waits for all of them.
 * Times are in milliseconds from the start of the step.
 */
import { assignBuckets, type Bucket, mibToBytes } from "./bucketAssignment.ts";
import {
  allReduceBandwidths,
  bucketPhases,
  type ParallelismConfig,
  type Phase,
  participatingRanks,
} from "./collectiveCost.ts";
import type { Param } from "./modelList.ts";

export interface ComputeConfig {
  forwardMs: number;
  /** The whole backward; each parameter's share is proportional to its element count. */
  backwardMs: number;
  optimizerMs: number;
}

export interface StepConfig {
  capMb: number;
  firstBucketMb: number;
  compute: ComputeConfig;
  parallel: ParallelismConfig;
}

export interface Span {
  start: number;
  end: number;
}

export interface BackwardSpan extends Span {
  /** Registration index of the parameter whose gradient this computes. */
  param: number;
  bucket: number;
}

export interface PhaseSpan extends Span {
  kind: Phase["kind"];
  ranks: number;
  bytes: number;
  link: string;
}

export interface CommSpan extends Span {
  bucket: number;
  /** When the bucket's last gradient was ready. */
  ready: number;
  phases: PhaseSpan[];
  /** nccl-tests' algbw and busbw of the bucket's whole reduction, bytes per second. */
  algbw: number;
  busbw: number;
}

export interface StepTimeline {
  forward: Span;
  backward: BackwardSpan[];
  comm: CommSpan[];
  optimizer: Span;
}

export interface StepMetrics {
  stepMs: number;
  computeMs: number;
  /** Sum of every bucket's reduction time. */
  commMs: number;
  /** Communication still running after backward ends (SIMULATION.md §2). */
  exposedCommMs: number;
  /** Holistic Trace Analysis: time computing while communicating ÷ time communicating. */
  overlapRatio: number;
  bucketCount: number;
}

export interface StepResult {
  buckets: Bucket[];
  overlapped: StepTimeline;
  /** Every reduction waits for the end of backward: what bucketing without overlap would cost. */
  baseline: StepTimeline;
  metrics: StepMetrics;
  baselineMetrics: StepMetrics;
}

/** Total length of the intersection of two lists of disjoint spans, each sorted by start. */
export function intersectionLength(a: readonly Span[], b: readonly Span[]): number {
  let i = 0;
  let j = 0;
  let total = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as Span;
    const y = b[j] as Span;
    total += Math.max(0, Math.min(x.end, y.end) - Math.max(x.start, y.start));
    if (x.end < y.end) i++;
    else j++;
  }
  return total;
}

function spanLength(spans: readonly Span[]): number {
  return spans.reduce((s, x) => s + (x.end - x.start), 0);
}

function backwardSpans(
  params: readonly Param[],
  buckets: readonly Bucket[],
  compute: ComputeConfig,
): BackwardSpan[] {
  const totalNumel = params.reduce((s, p) => s + p.numel, 0);
  const perElement = totalNumel > 0 ? compute.backwardMs / totalNumel : 0;
  const bucketOf = new Int32Array(params.length);
  buckets.forEach((b, bi) => {
    for (const p of b.params) bucketOf[p] = bi;
  });
  const spans: BackwardSpan[] = [];
  let t = compute.forwardMs;
  // Gradients become ready in reverse registration order.
  for (let i = params.length - 1; i >= 0; i--) {
    const d = (params[i] as Param).numel * perElement;
    spans.push({ param: i, bucket: bucketOf[i] as number, start: t, end: t + d });
    t += d;
  }
  return spans;
}

function commSpans(
  buckets: readonly Bucket[],
  readyAt: Float64Array,
  notBefore: number,
  parallel: ParallelismConfig,
): CommSpan[] {
  const ranks = participatingRanks(parallel);
  let previousEnd = notBefore;
  return buckets.map((b, bi) => {
    const ready = readyAt[bi] as number;
    const start = Math.max(ready, previousEnd);
    let t = start;
    const phases = bucketPhases(b.bytes, parallel).map((ph) => {
      const span: PhaseSpan = {
        kind: ph.kind,
        ranks: ph.ranks,
        bytes: ph.bytes,
        link: ph.link,
        start: t,
        end: t + ph.seconds * 1e3,
      };
      t = span.end;
      return span;
    });
    previousEnd = t;
    const { algbw, busbw } = allReduceBandwidths(b.bytes, (t - start) / 1e3, ranks);
    return { bucket: bi, ready, start, end: t, phases, algbw, busbw };
  });
}

function timeline(
  buckets: readonly Bucket[],
  backward: BackwardSpan[],
  compute: ComputeConfig,
  parallel: ParallelismConfig,
  overlap: boolean,
): StepTimeline {
  const readyAt = new Float64Array(buckets.length);
  for (const s of backward) readyAt[s.bucket] = Math.max(readyAt[s.bucket] as number, s.end);
  const backwardEnd = compute.forwardMs + compute.backwardMs;
  const comm = commSpans(buckets, readyAt, overlap ? 0 : backwardEnd, parallel);
  const commEnd = comm.at(-1)?.end ?? backwardEnd;
  const optStart = Math.max(backwardEnd, commEnd);
  return {
    forward: { start: 0, end: compute.forwardMs },
    backward,
    comm,
    optimizer: { start: optStart, end: optStart + compute.optimizerMs },
  };
}

export function stepMetrics(t: StepTimeline, compute: ComputeConfig): StepMetrics {
  const backwardEnd = t.forward.end + compute.backwardMs;
  const commBusy: Span[] = t.comm.map((c) => ({ start: c.start, end: c.end }));
  const computeBusy: Span[] = [{ start: t.forward.start, end: backwardEnd }, t.optimizer];
  const commMs = spanLength(commBusy);
  const commEnd = t.comm.at(-1)?.end ?? backwardEnd;
  return {
    stepMs: t.optimizer.end,
    computeMs: compute.forwardMs + compute.backwardMs + compute.optimizerMs,
    commMs,
    exposedCommMs: Math.max(0, commEnd - backwardEnd),
    overlapRatio: commMs > 0 ? intersectionLength(computeBusy, commBusy) / commMs : 0,
    bucketCount: t.comm.length,
  };
}

export function bucketsFor(
  params: readonly Param[],
  config: Pick<StepConfig, "capMb" | "firstBucketMb">,
): Bucket[] {
  return assignBuckets(params, {
    capBytes: mibToBytes(config.capMb),
    firstBucketBytes: mibToBytes(config.firstBucketMb),
  });
}

export function runStep(params: readonly Param[], config: StepConfig): StepResult {
  const buckets = bucketsFor(params, config);
  const backward = backwardSpans(params, buckets, config.compute);
  const overlapped = timeline(buckets, backward, config.compute, config.parallel, true);
  const baseline = timeline(buckets, backward, config.compute, config.parallel, false);
  return {
    buckets,
    overlapped,
    baseline,
    metrics: stepMetrics(overlapped, config.compute),
    baselineMetrics: stepMetrics(baseline, config.compute),
  };
}
