/**
 * The α–β link the trace's own all-reduces imply. Each measured all-reduce of S bytes over n
 * ranks took t; the ring model says t = c + 2(n−1)·α + 2(n−1)/n · S/B (collectiveCost.ts) with c
 * a per-call cost. Over one job n is fixed, so the intercept a = c + 2(n−1)α and the slope
 * b = 2(n−1)/(n·B) are what least squares on (S, t) can tell apart: the fit reports both, and the
 * model's link takes α = a / (2(n−1)) (the per-call cost folded into α, as the model has no
 * per-call term) and B = 2(n−1)/(n·b).
 */
import type { Link } from "../collectiveCost.ts";
import { STEP_RANGES, type StepRange } from "../stepRanges.ts";
import { collectiveOf } from "./kernelClass.ts";
import type { RankFigures } from "./measure.ts";

export interface AllReduceCall {
  rank: number;
  step: number;
  bytes: number;
  ms: number;
}

export interface LinkFit {
  ranks: number;
  calls: number;
  /** t = interceptMs + msPerByte · S. */
  interceptMs: number;
  msPerByte: number;
  /** The model's link: α (s per ring step) and B (bytes/s per rank). */
  alpha: number;
  bandwidth: number;
  /** Coefficient of determination, and the root-mean-square residual (ms). */
  r2: number;
  rmsMs: number;
  residuals: { bytes: number; measuredMs: number; fittedMs: number }[];
}

export type FitResult = { ok: true; fit: LinkFit } | { ok: false; why: string; calls: AllReduceCall[] };

/** Every measured all-reduce whose size the trace gives (NCCL kernel args or record_param_comms). */
export function allReduceCalls(ranks: readonly RankFigures[]): AllReduceCall[] {
  const out: AllReduceCall[] = [];
  for (const r of ranks) {
    for (const a of r.activities) {
      if (a.cls !== "comm" || a.bytes === null || collectiveOf(a.name) !== "allreduce") continue;
      out.push({ rank: r.rank, step: a.step, bytes: a.bytes, ms: (a.end - a.start) / 1e3 });
    }
  }
  return out;
}

/** Ordinary least squares of t on S; refuses what cannot be fitted, saying why. */
export function fitLink(ranks: readonly RankFigures[], worldSize: number): FitResult {
  const calls = allReduceCalls(ranks);
  if (calls.length === 0) {
    return { ok: false, why: "no all-reduce in the trace carries its size (In msg nelems + dtype)", calls };
  }
  if (new Set(calls.map((c) => c.bytes)).size < 2) {
    return { ok: false, why: "every all-reduce has the same size: a line needs at least two sizes", calls };
  }
  if (worldSize < 2) return { ok: false, why: "a world of one rank moves nothing", calls };
  const n = calls.length;
  const mx = calls.reduce((s, c) => s + c.bytes, 0) / n;
  const my = calls.reduce((s, c) => s + c.ms, 0) / n;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (const c of calls) {
    sxx += (c.bytes - mx) ** 2;
    sxy += (c.bytes - mx) * (c.ms - my);
    syy += (c.ms - my) ** 2;
  }
  const slope = sxy / sxx;
  const intercept = my - slope * mx;
  if (!(slope > 0)) {
    return { ok: false, why: "the all-reduce times do not grow with their size: no bandwidth to fit", calls };
  }
  const residuals = calls.map((c) => ({
    bytes: c.bytes,
    measuredMs: c.ms,
    fittedMs: intercept + slope * c.bytes,
  }));
  const sse = residuals.reduce((s, r) => s + (r.measuredMs - r.fittedMs) ** 2, 0);
  const steps = 2 * (worldSize - 1);
  const alpha = Math.max(0, intercept / 1e3 / steps);
  const bandwidth = steps / worldSize / (slope / 1e3);
  return {
    ok: true,
    fit: {
      ranks: worldSize,
      calls: n,
      interceptMs: intercept,
      msPerByte: slope,
      alpha,
      bandwidth,
      r2: syy > 0 ? 1 - sse / syy : 1,
      rmsMs: Math.sqrt(sse / n),
      residuals,
    },
  };
}

/**
 * The fit as an edit of a link the step model already has: its α and B replaced, bounded as the
 * step link bounds them (STEP_RANGES: α in [0, 1] s, B in [10⁶, 10¹⁵] bytes/s), so the edit
 * fits in a share link that reopens.
 */
export function fittedLink(fit: LinkFit, base: Link): Link {
  const clamp = (v: number, r: StepRange) => Math.min(r.max, Math.max(r.min, v));
  return {
    ...base,
    alpha: clamp(Math.round(fit.alpha * 1e9) / 1e9, STEP_RANGES.alphaSeconds),
    bandwidth: clamp(Math.round(fit.bandwidth), STEP_RANGES.bandwidthBytesPerSecond),
  };
}
