/**
 * One training step of DDP / HSDP, bucket by bucket (docs/model.md §2): forward, backward
 * parameter by parameter in gradient-ready order, each bucket's reduction on one communication
 * stream (`start_i = max(ready_i, end_{i−1})`), then the optimizer, which waits for all of them.
 * Times are in milliseconds from the start of the step.
 *
 * With a slow rank (slowRank.ts) the timeline is a healthy GPU's: its own backward, and reductions
 * that start when the slow rank's gradients are ready too, or move at its slow link's pace; the
 * time its communication stream spends held back is each reduction's `wait`.
 */

import { assignBuckets, type Bucket, mibToBytes } from "./bucketAssignment.ts";
import {
  allReduceBandwidths,
  bucketPhases,
  type ParallelismConfig,
  type Phase,
  participatingRanks,
} from "./collectiveCost.ts";
import { intersectLength, totalLength } from "./intervals.ts";
import type { Param } from "./modelList.ts";
import {
  type SlowRank,
  type SlowRankEffect,
  slowLinkText,
  slowRankActive,
  withSlowLink,
} from "./slowRank.ts";

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
  /** Absent or "none": every rank at speed, the step as before the slow rank existed. */
  slowRank?: SlowRank;
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
  /**
   * Only with a slow rank, when it held this reduction back: the time the healthy GPU's stream was
   * free and the bucket ready there, but the slow rank's gradients were not (just before `start`),
   * or the part of its phases that the slow link's pace added (at the end of the slowed phase).
   */
  wait?: Span;
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
  /** Communication still running after backward ends (docs/model.md §2). */
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
  /** Only with a slow rank that takes effect (slowRankActive). */
  slowRank?: SlowRankEffect;
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

/**
 * When every rank has a bucket's gradients, and may start reducing: at speed, when this GPU has
 * them (`here`); with a slow rank, when the slowest has them too (`all`).
 */
interface Readiness {
  here: Float64Array;
  all: Float64Array;
  /** No reduction before these (the end of backward, without overlap). */
  hereNotBefore: number;
  allNotBefore: number;
}

function commSpans(
  buckets: readonly Bucket[],
  ready: Readiness,
  parallel: ParallelismConfig,
  slow: SlowRank | null,
): CommSpan[] {
  const ranks = participatingRanks(parallel);
  const slowParallel = slow?.kind === "link" ? withSlowLink(parallel, slow.factor) : null;
  let previousEnd = ready.allNotBefore;
  // When this GPU's stream could take the next bucket, had nobody been slow.
  let hereFree = ready.hereNotBefore;
  return buckets.map((b, bi) => {
    const readyAll = ready.all[bi] as number;
    const start = Math.max(readyAll, previousEnd);
    let t = start;
    const atSpeed = slowParallel ? bucketPhases(b.bytes, parallel) : null;
    let slowedMs = 0;
    const phases = bucketPhases(b.bytes, slowParallel ?? parallel).map((ph, k) => {
      const span: PhaseSpan = {
        kind: ph.kind,
        ranks: ph.ranks,
        bytes: ph.bytes,
        link: ph.link,
        start: t,
        end: t + ph.seconds * 1e3,
      };
      // Only the ring across nodes or replicas is slowed, the bucket's last phase: its tail is the wait.
      if (atSpeed) slowedMs += (ph.seconds - (atSpeed[k] as Phase).seconds) * 1e3;
      t = span.end;
      return span;
    });
    previousEnd = t;
    const { algbw, busbw } = allReduceBandwidths(b.bytes, (t - start) / 1e3, ranks);
    const span: CommSpan = { bucket: bi, ready: readyAll, start, end: t, phases, algbw, busbw };
    if (slow) {
      const couldStart = Math.max(ready.here[bi] as number, hereFree);
      hereFree = Math.max(ready.hereNotBefore, t);
      const slowedFrom = t - slowedMs;
      if (start > couldStart) span.wait = { start: couldStart, end: start };
      else if (slowedFrom < t) span.wait = { start: slowedFrom, end: t };
    }
    return span;
  });
}

/**
 * Readiness at speed, and with a compute-slow rank: its backward runs `factor`× as long, so the
 * gradient this GPU has at forward + x, it has at forward + factor·x.
 */
function readiness(
  buckets: readonly Bucket[],
  backward: readonly BackwardSpan[],
  compute: ComputeConfig,
  overlap: boolean,
  slow: SlowRank | null,
): Readiness {
  const here = new Float64Array(buckets.length);
  for (const s of backward) here[s.bucket] = Math.max(here[s.bucket] as number, s.end);
  const backwardEnd = compute.forwardMs + compute.backwardMs;
  const hereNotBefore = overlap ? 0 : backwardEnd;
  if (slow?.kind !== "compute") return { here, all: here, hereNotBefore, allNotBefore: hereNotBefore };
  const f = slow.factor;
  const all = here.map((r) => compute.forwardMs + f * (r - compute.forwardMs));
  const allNotBefore = overlap ? 0 : compute.forwardMs + f * compute.backwardMs;
  return { here, all, hereNotBefore, allNotBefore };
}

function timeline(
  buckets: readonly Bucket[],
  backward: BackwardSpan[],
  compute: ComputeConfig,
  parallel: ParallelismConfig,
  overlap: boolean,
  slow: SlowRank | null,
): StepTimeline {
  const backwardEnd = compute.forwardMs + compute.backwardMs;
  const ready = readiness(buckets, backward, compute, overlap, slow);
  const comm = commSpans(buckets, ready, parallel, slow);
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
  const commMs = totalLength(commBusy);
  const commEnd = t.comm.at(-1)?.end ?? backwardEnd;
  return {
    stepMs: t.optimizer.end,
    computeMs: compute.forwardMs + compute.backwardMs + compute.optimizerMs,
    commMs,
    exposedCommMs: Math.max(0, commEnd - backwardEnd),
    overlapRatio: commMs > 0 ? intersectLength(computeBusy, commBusy) / commMs : 0,
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
  const slow = slowRankActive(config.slowRank, config.parallel) ? config.slowRank : null;
  const overlapped = timeline(buckets, backward, config.compute, config.parallel, true, slow);
  const baseline = timeline(buckets, backward, config.compute, config.parallel, false, slow);
  const result: StepResult = {
    buckets,
    overlapped,
    baseline,
    metrics: stepMetrics(overlapped, config.compute),
    baselineMetrics: stepMetrics(baseline, config.compute),
  };
  if (slow?.kind === "compute" || slow?.kind === "link") {
    const even = timeline(buckets, backward, config.compute, config.parallel, true, null);
    const evenStepMs = stepMetrics(even, config.compute).stepMs;
    result.slowRank = {
      kind: slow.kind,
      factor: slow.factor,
      rank: participatingRanks(config.parallel) - 1,
      waitMs: overlapped.comm.reduce((s, c) => s + (c.wait ? c.wait.end - c.wait.start : 0), 0),
      waitedBuckets: overlapped.comm.filter((c) => c.wait).length,
      bucketCount: buckets.length,
      exposedWaitMs: result.metrics.stepMs - evenStepMs,
      evenStepMs,
      ...(slow.kind === "link" ? { link: slowLinkText(config.parallel) } : {}),
    };
  }
  return result;
}
