/**
 * The per-step reference check of DiLoCo mode, as stepCheck.ts for the other runs: each AdamW
 * step (DiLoCo's inner step, or DDP's on the averaged gradient) and each outer step (the
 * pseudo-gradients' average and the Nesterov update) is recomputed in float64 from the trainer's
 * own float32 state before it, and every element must lie within a bound of float32 rounding.
 *
 * AdamW's update m̂ / (√v̂ + ε) is not Lipschitz where v̂ is near 0, so its bound is taken over
 * the whole box the inputs' bounds allow: the update is monotone in m̂ and in v̂, so its extremes
 * lie at the box's corners; then WGSL's sqrt and division (2.5 ULP each, WGSL §14.6.2) and the
 * roundings of lr·λ, and how far the float32 constants β₁, β₂, 1 − β and ε lie from their
 * float64 values, are added. The outer step's bound
 * follows the ring's sum (γ(n) of the magnitudes), the ÷ n and the momentum as for SGD.
 */
import { BATCH_PER_REPLICA } from "./config.ts";
import { type DataSet, shardStart } from "./data.ts";
import { ADAM_BETA1, ADAM_BETA2, ADAM_EPS, biasCorrections, WEIGHT_DECAY } from "./diloco.ts";
import type { Floats } from "./mlp.ts";
import type { Layout } from "./model.ts";
import {
  BOUND_MARGIN,
  FLOOR,
  type Gradient,
  gamma,
  type StepReference,
  shardGradient,
  U,
} from "./stepCheck.ts";

/**
 * How far the GPU's float32 constants are from the float64 ones: 1 − f32(0.999) is 1.3·10⁻⁵
 * off relative (the cancellation magnifies β₂'s own rounding), far more than one rounding.
 */
const f32 = Math.fround;
const DEV_B1 = Math.abs(f32(ADAM_BETA1) - ADAM_BETA1);
const DEV_C1 = Math.abs(f32(1 - f32(ADAM_BETA1)) - (1 - ADAM_BETA1));
const DEV_B2 = Math.abs(f32(ADAM_BETA2) - ADAM_BETA2);
const DEV_C2 = Math.abs(f32(1 - f32(ADAM_BETA2)) - (1 - ADAM_BETA2));
const DEV_EPS = Math.abs(f32(ADAM_EPS) - ADAM_EPS);

/** The gradient an AdamW step of `replica` reads: its own shard's, or (DDP) the mean over `who`'s shards. */
function stepGradient(
  layout: Layout,
  data: DataSet,
  replicas: number,
  step: number,
  w: Floats,
  own: number,
  reduceOver: readonly number[] | null,
): Gradient {
  const shard = (r: number) =>
    shardGradient(layout, w, data, shardStart(step, r, replicas, BATCH_PER_REPLICA), BATCH_PER_REPLICA);
  if (!reduceOver) return shard(own);
  const P = layout.count;
  const sum = new Float64Array(P);
  const mag = new Float64Array(P);
  const err = new Float64Array(P);
  for (const r of reduceOver) {
    const { g, e } = shard(r);
    for (let i = 0; i < P; i++) {
      sum[i] = (sum[i] as number) + (g[i] as number);
      mag[i] = (mag[i] as number) + Math.abs(g[i] as number);
      err[i] = (err[i] as number) + (e[i] as number);
    }
  }
  const n = reduceOver.length;
  const gamR = gamma(n);
  const g = new Float64Array(P);
  const e = new Float64Array(P);
  for (let i = 0; i < P; i++) {
    g[i] = (sum[i] as number) / n;
    e[i] = (gamR * (mag[i] as number) + (err[i] as number)) / n + 2 * U * Math.abs(g[i] as number);
  }
  return { g, e };
}

/**
 * One AdamW step recomputed in float64 from `before` (θ‖m‖v as the trainer held them), with
 * each element's bound. `reduceOver`: DDP's replicas (every one held the same θ), or null for
 * DiLoCo's inner step on the replica's own shard.
 */
export function referenceAdamw(
  layout: Layout,
  data: DataSet,
  replicas: number,
  step: number,
  replica: number,
  reduceOver: readonly number[] | null,
  before: Floats,
  lr: number,
  t: number,
): StepReference {
  const P = layout.count;
  const w = before.subarray(0, P);
  const { g, e: eg } = stepGradient(layout, data, replicas, step, w, replica, reduceOver);
  const { bc1, bc2 } = biasCorrections(t);
  const state = new Float64Array(3 * P);
  const bound = new Float64Array(3 * P);
  const b1 = ADAM_BETA1;
  const b2 = ADAM_BETA2;
  for (let i = 0; i < P; i++) {
    const gi = g[i] as number;
    const egi = eg[i] as number;
    const m = before[P + i] as number;
    const v = before[2 * P + i] as number;
    const wi = w[i] as number;
    const m1 = b1 * m + (1 - b1) * gi;
    // Two products and a sum, and the float32 constants β₁ and 1 − β₁.
    const em =
      (1 - b1) * egi +
      3 * U * (b1 * Math.abs(m) + (1 - b1) * Math.abs(gi)) +
      DEV_B1 * Math.abs(m) +
      DEV_C1 * Math.abs(gi) +
      U * Math.abs(m1);
    const v1 = b2 * v + (1 - b2) * gi * gi;
    const ev =
      (1 - b2) * (2 * Math.abs(gi) * egi + egi * egi) +
      4 * U * (b2 * v + (1 - b2) * gi * gi) +
      DEV_B2 * v +
      DEV_C2 * gi * gi +
      U * v1;
    // ÷ the float32 bias corrections: their rounding (u) and the division (2.5 ULP = 5u).
    const mh = m1 / bc1;
    const emh = em / bc1 + 6 * U * Math.abs(mh);
    const vh = v1 / bc2;
    const evh = ev / bc2 + 6 * U * vh;
    const den = (x: number) => Math.sqrt(Math.max(0, x)) + ADAM_EPS;
    const upd = mh / den(vh);
    const hi = mh + emh;
    const lo = mh - emh;
    const updHi = hi / den(hi >= 0 ? vh - evh : vh + evh);
    const updLo = lo / den(lo >= 0 ? vh + evh : vh - evh);
    // sqrt (2.5 ULP), + ε, ÷ (2.5 ULP): relative to the update, on top of the inputs' box.
    const eu =
      Math.max(Math.abs(updHi - upd), Math.abs(upd - updLo)) +
      12 * U * Math.max(Math.abs(updHi), Math.abs(updLo)) +
      (Math.max(Math.abs(updHi), Math.abs(updLo)) * DEV_EPS) / den(vh - evh);
    const decay = 1 - lr * WEIGHT_DECAY;
    const w1 = wi * decay - lr * upd;
    // lr·λ and 1 − lr·λ rounded, w·decay, lr·update, and the difference.
    const ew = 4 * U * Math.abs(wi) + lr * eu + 2 * U * lr * Math.abs(upd) + U * Math.abs(w1);
    state[i] = w1;
    state[P + i] = m1;
    state[2 * P + i] = v1;
    bound[i] = BOUND_MARGIN * ew + FLOOR;
    bound[P + i] = BOUND_MARGIN * em + FLOOR;
    bound[2 * P + i] = BOUND_MARGIN * ev + FLOOR;
  }
  return { state, bound };
}

/**
 * The outer step recomputed in float64: each participant's Δ = θ_outer − θ (from its float32 θ),
 * their mean, Nesterov on θ_outer; laid out as SYNC_TENSORS (the average, then θ, θ_outer and the
 * momentum after, θ = θ_outer). `outer`: θ_outer then momentum before the step.
 */
export function referenceSync(
  thetas: readonly Floats[],
  outer: Floats,
  lr: number,
  mu: number,
): StepReference {
  const P = outer.length / 2;
  const n = thetas.length;
  const gamR = gamma(n);
  const state = new Float64Array(4 * P);
  const bound = new Float64Array(4 * P);
  for (let i = 0; i < P; i++) {
    const o = outer[i] as number;
    const b = outer[P + i] as number;
    let sum = 0;
    let mag = 0;
    for (const th of thetas) {
      const d = o - (th[i] as number);
      sum += d;
      mag += Math.abs(d);
    }
    // Each Δ rounded once (u·|Δ|), the ring's n − 1 additions, × float32(1/n): two roundings.
    const d = sum / n;
    const ed = (U * mag + gamR * mag) / n + 2 * U * Math.abs(d);
    const b1 = mu * b + d;
    const eb = ed + 3 * U * mu * Math.abs(b) + U * Math.abs(b1);
    const step = d + mu * b1;
    const es = ed + mu * eb + 3 * U * mu * Math.abs(b1) + U * Math.abs(step);
    const o1 = o - lr * step;
    const eo = lr * es + 2 * U * lr * Math.abs(step) + U * Math.abs(o1);
    state[i] = d;
    state[P + i] = o1;
    state[2 * P + i] = o1;
    state[3 * P + i] = b1;
    bound[i] = BOUND_MARGIN * ed + FLOOR;
    bound[P + i] = BOUND_MARGIN * eo + FLOOR;
    bound[2 * P + i] = BOUND_MARGIN * eo + FLOOR;
    bound[3 * P + i] = BOUND_MARGIN * eb + FLOOR;
  }
  return { state, bound };
}
