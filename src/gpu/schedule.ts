/**
 * A collective as data: a list of steps, each a set of independent operations on the simulated
 * devices' buffers. Every executor (one GPUDevice, one GPUDevice per device, plain typed arrays)
 * runs the same schedule, so the algorithms are written and tested once, here, with no WebGPU.
 *
 * Each device owns an `in` buffer (its contribution, never written) and an `out` buffer (the
 * result, poisoned before a run). Keeping them apart makes a run repeatable and lets a run prove
 * it wrote every element it claims.
 */
import type { Range } from "./chunking.ts";

export type BufName = "in" | "out";

export interface BufRef {
  rank: number;
  buf: BufName;
}

/**
 * out[dst][range] = Σ sources[range]. A source may be out[dst] itself (accumulate in place); one
 * source is a copy. `chunk` names the ring chunk moved, for the animation.
 */
export interface SumOp {
  kind: "sum";
  dst: number;
  range: Range;
  sources: BufRef[];
  chunk?: number;
}

/** out[dst][range] *= factor (AVG is SUM, then this). */
export interface ScaleOp {
  kind: "scale";
  dst: number;
  range: Range;
  factor: number;
}

export type Op = SumOp | ScaleOp;

export type StepPhase = "fold" | "reduce-scatter" | "all-gather" | "unfold" | "reduce" | "scale";

export interface Step {
  phase: StepPhase;
  ops: Op[];
}

/** What a correct run leaves in out[rank][range]: scale · Σ in[c][range] over the contributors. */
export interface Expectation {
  rank: number;
  range: Range;
  contributors: number[];
  scale: number;
}

export type Algorithm = "ring" | "halving-doubling" | "one-shot" | "reduce-scatter" | "all-gather";
export type Collective = "all-reduce" | "reduce-scatter" | "all-gather";
export type ReduceOp = "sum" | "avg";

export interface Schedule {
  algorithm: Algorithm;
  collective: Collective;
  /** The participating device ids, in ring order where the algorithm has one. */
  ranks: number[];
  /** Elements (float32) per device buffer. */
  count: number;
  steps: Step[];
  expected: Expectation[];
}

/** Device ids an operation touches, as (from, to) hops; local reads are not hops. */
export function hopsOf(op: Op): { from: number; to: number; chunk?: number }[] {
  if (op.kind !== "sum") return [];
  return op.sources
    .filter((s) => s.rank !== op.dst)
    .map((s) =>
      op.chunk === undefined ? { from: s.rank, to: op.dst } : { from: s.rank, to: op.dst, chunk: op.chunk },
    );
}

/** Bytes an operation must read and write (4-byte floats). */
export function opTrafficBytes(op: Op): number {
  const reads = op.kind === "sum" ? op.sources.length : 1;
  return (reads + 1) * op.range.length * 4;
}

/** Bytes the whole schedule must read and write: the numerator of the efficiency figure. */
export function trafficBytes(s: Schedule): number {
  let total = 0;
  for (const step of s.steps) for (const op of step.ops) total += opTrafficBytes(op);
  return total;
}

/** Appends AVG's divide to an all-reduce schedule, and scales what it is expected to produce. */
export function withAverage(s: Schedule): Schedule {
  return withDivisor(s, s.ranks.length);
}

/**
 * Appends a divide by `divisor` to an all-reduce schedule. FT-HSDP's gradient average divides by
 * the replicas that computed a gradient, which a ring with a healing member outnumbers.
 */
export function withDivisor(s: Schedule, divisor: number): Schedule {
  if (divisor === 1) return s;
  const factor = 1 / divisor;
  const ops: Op[] = s.expected.map((e) => ({ kind: "scale", dst: e.rank, range: e.range, factor }));
  return {
    ...s,
    steps: [...s.steps, { phase: "scale", ops }],
    expected: s.expected.map((e) => ({ ...e, scale: e.scale * factor })),
  };
}

export function nonEmpty<T extends { range: Range }>(ops: T[]): T[] {
  return ops.filter((o) => o.range.length > 0);
}
