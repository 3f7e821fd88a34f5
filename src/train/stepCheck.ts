/**
 * The per-step reference check. After every step of a run under test (WebGPU or the float32 CPU
 * fallback), the same step is recomputed in float64 from that run's own float32 weights and
 * momentum as they were before the step, and every element of the new weights and momentum must
 * lie within a bound derived from float32 rounding. Because each step starts from the trainer's
 * own state, the bound is one step's rounding and never accumulates: a trajectory that drifts
 * apart from a float64 one over hundreds of steps (momentum SGD on ReLUs is chaotic) is not an
 * error, while a wrong sign, a lost gradient or a wrong divisor is off by the size of the update
 * itself, thousands of bounds away.
 *
 * The bound is a running forward-error bound (Higham, Accuracy and Stability of Numerical
 * Algorithms, §3.1): a float32 sum of n products of exact inputs is off by at most
 * γ(n)·Σ|products|, γ(n) = n·u/(1 − n·u), u = 2⁻²⁴; an input already off by e adds e times the
 * other factor's magnitude. It follows every value of forward, softmax, backward, the ring
 * all-reduce, the ÷ divisor and the SGD update. Two places need more than rounding:
 * - A ReLU whose float64 pre-activation lies within its bound of 0 may fall on the other side of
 *   the kink in float32. Its output is still within the bound (ReLU is 1-Lipschitz), but its
 *   gradient is passed or zeroed: for such a point and unit the bound takes the whole
 *   back-propagated value (only there, so a kink costs one point's contribution, not the run).
 * - WGSL's exp is accurate to 3 + 2·|x| ULP and its division to 2.5 ULP (WGSL §14.6.2), looser
 *   than one rounding; the softmax's bound uses those.
 * Second-order terms (products of two bounds, γ's own rounding) are dropped and covered by
 * BOUND_MARGIN; an absolute floor covers a GPU that flushes subnormal results to zero. The last
 * rounding of a weight alone is up to half an ulp, i.e. up to u·|w| (the bound's own last term),
 * so a correct step may reach 1 ÷ BOUND_MARGIN = 50 % of the bound; the software adapter's
 * defaults reach 49.9 %. A wrong sign or a dropped gradient lands thousands of bounds away.
 */
import { BATCH_PER_REPLICA, MOMENTUM } from "./config.ts";
import { CLASSES, type DataSet, INPUTS, shardStart } from "./data.ts";
import type { Floats } from "./mlp.ts";
import type { Layout } from "./model.ts";
import type { StepRoles } from "./plan.ts";

/** float32's unit roundoff. */
export const U = 2 ** -24;
export const gamma = (n: number): number => (n * U) / (1 - n * U);
/** Covers the second-order terms the bound leaves out (they are below u² relative). */
export const BOUND_MARGIN = 2;
/** Four times float32's smallest normal: a result the GPU flushed to zero is within it. */
export const FLOOR = 4 * 2 ** -126;

export interface StepReference {
  /** Weights then momentum after the step, in float64. */
  state: Float64Array;
  /** Per element: the most a correct float32 step may differ from `state`. */
  bound: Float64Array;
}

export interface Gradient {
  g: Float64Array;
  /** Bound on |float32 gradient − g|, per element. */
  e: Float64Array;
}

/** One replica's shard: the float64 gradient from weights `w` and its float32 error bound. */
export function shardGradient(layout: Layout, w: Floats, data: DataSet, start: number, B: number): Gradient {
  const points = data.train.y.length;
  const widths = [INPUTS, ...layout.layers.map((L) => L.fanOut)];
  const acts = widths.map((n) => new Float64Array(B * n));
  const errs = widths.map((n) => new Float64Array(B * n));
  /** 1 where float32's ReLU is sure to agree with float64's on passing or clipping. */
  const sure = widths.map((n) => new Uint8Array(B * n).fill(1));
  const x0 = acts[0] as Float64Array;
  for (let k = 0; k < B; k++) {
    const i = (start + k) % points;
    for (let d = 0; d < INPUTS; d++) x0[k * INPUTS + d] = data.train.x[i * INPUTS + d] as number;
  }
  layout.layers.forEach((L, l) => {
    const a = acts[l] as Float64Array;
    const ea = errs[l] as Float64Array;
    const z = acts[l + 1] as Float64Array;
    const ez = errs[l + 1] as Float64Array;
    const ok = sure[l + 1] as Uint8Array;
    const gam = gamma(L.fanIn + 1);
    for (let k = 0; k < B; k++) {
      for (let j = 0; j < L.fanOut; j++) {
        const b = w[L.b + j] as number;
        let s = b;
        let mag = Math.abs(b);
        let prop = 0;
        for (let i = 0; i < L.fanIn; i++) {
          const wij = w[L.w + i * L.fanOut + j] as number;
          const ai = a[k * L.fanIn + i] as number;
          s += ai * wij;
          mag += Math.abs(ai * wij);
          prop += (ea[k * L.fanIn + i] as number) * Math.abs(wij);
        }
        const e = gam * mag + prop;
        const t = k * L.fanOut + j;
        if (!L.relu) {
          z[t] = s;
          ez[t] = e;
        } else if (s < -e) {
          // Clipped in both precisions: exactly 0.
          z[t] = 0;
          ez[t] = 0;
        } else {
          z[t] = Math.max(s, 0);
          ez[t] = e;
          if (s <= e) ok[t] = 0;
        }
      }
    }
  });
  const top = layout.layers.length;
  const logits = acts[top] as Float64Array;
  const elog = errs[top] as Float64Array;
  let d = new Float64Array(B * CLASSES);
  let ed = new Float64Array(B * CLASSES);
  for (let k = 0; k < B; k++) {
    const row = k * CLASSES;
    const label = data.train.y[(start + k) % points] as number;
    let m = Number.NEGATIVE_INFINITY;
    let E = 0;
    for (let c = 0; c < CLASSES; c++) {
      m = Math.max(m, logits[row + c] as number);
      E = Math.max(E, elog[row + c] as number);
    }
    // exp(x) with x = z − m ≤ 0: the argument's rounding (u·|x|, relative after exp) and WGSL's
    // 3 + 2|x| ULP (an ULP is at most 2u relative).
    const expErr = (x: number) => U * Math.abs(x) + (6 + 4 * Math.abs(x)) * U;
    let sum = 0;
    let sumErr = 0;
    for (let c = 0; c < CLASSES; c++) {
      const x = (logits[row + c] as number) - m;
      sum += Math.exp(x);
      sumErr = Math.max(sumErr, expErr(x));
    }
    sumErr += gamma(CLASSES);
    // Logits off by ≤ E each move a softmax output by a factor within e^{±2E}.
    const fromLogits = Math.expm1(2 * E);
    for (let c = 0; c < CLASSES; c++) {
      const x = (logits[row + c] as number) - m;
      const p = Math.exp(x) / sum;
      const y = c === label ? 1 : 0;
      // The division: 2.5 ULP. ÷ B (B = 16 here) is exact in binary.
      const rel = expErr(x) + sumErr + 5 * U + fromLogits;
      d[row + c] = (p - y) / B;
      ed[row + c] = (p * rel + U * Math.abs(p - y)) / B;
    }
  }
  const g = new Float64Array(layout.count);
  const e = new Float64Array(layout.count);
  const gamB = gamma(B);
  for (let l = top - 1; l >= 0; l--) {
    const L = layout.layers[l];
    if (!L) continue;
    const a = acts[l] as Float64Array;
    const ea = errs[l] as Float64Array;
    for (let i = 0; i < L.fanIn; i++) {
      for (let j = 0; j < L.fanOut; j++) {
        let s = 0;
        let mag = 0;
        let prop = 0;
        for (let k = 0; k < B; k++) {
          const ai = a[k * L.fanIn + i] as number;
          const dj = d[k * L.fanOut + j] as number;
          const eai = ea[k * L.fanIn + i] as number;
          const edj = ed[k * L.fanOut + j] as number;
          s += ai * dj;
          mag += Math.abs(ai * dj);
          prop += eai * Math.abs(dj) + Math.abs(ai) * edj + eai * edj;
        }
        g[L.w + i * L.fanOut + j] = s;
        e[L.w + i * L.fanOut + j] = gamB * mag + prop;
      }
    }
    for (let j = 0; j < L.fanOut; j++) {
      let s = 0;
      let mag = 0;
      let prop = 0;
      for (let k = 0; k < B; k++) {
        s += d[k * L.fanOut + j] as number;
        mag += Math.abs(d[k * L.fanOut + j] as number);
        prop += ed[k * L.fanOut + j] as number;
      }
      g[L.b + j] = s;
      e[L.b + j] = gamB * mag + prop;
    }
    if (l === 0) break;
    // δ of the layer below, through its ReLU (passed where its output a > 0).
    const ok = sure[l] as Uint8Array;
    const gamF = gamma(L.fanOut);
    const nd = new Float64Array(B * L.fanIn);
    const ned = new Float64Array(B * L.fanIn);
    for (let k = 0; k < B; k++) {
      for (let i = 0; i < L.fanIn; i++) {
        let s = 0;
        let mag = 0;
        let prop = 0;
        for (let j = 0; j < L.fanOut; j++) {
          const wij = w[L.w + i * L.fanOut + j] as number;
          const dj = d[k * L.fanOut + j] as number;
          s += dj * wij;
          mag += Math.abs(dj * wij);
          prop += (ed[k * L.fanOut + j] as number) * Math.abs(wij);
        }
        const t = k * L.fanIn + i;
        const passes = (a[t] as number) > 0;
        const err = gamF * mag + prop;
        nd[t] = passes ? s : 0;
        // At an unsure kink float32 may have passed what float64 clipped, or the reverse.
        ned[t] = ok[t] ? (passes ? err : 0) : Math.abs(s) + err;
      }
    }
    d = nd;
    ed = ned;
  }
  return { g, e };
}

/**
 * The step `step` recomputed in float64 from `before` (weights then momentum, as the trainer
 * held them): every computing replica's shard gradient, the sum over the ring (a healer adds
 * zeros), ÷ divisor, then SGD with momentum; with each element's bound.
 */
export function referenceStep(
  layout: Layout,
  data: DataSet,
  replicas: number,
  step: number,
  roles: StepRoles,
  lr: number,
  before: Floats,
): StepReference {
  const P = layout.count;
  const w = before.subarray(0, P);
  const sum = new Float64Array(P);
  const mag = new Float64Array(P);
  const err = new Float64Array(P);
  for (const r of roles.compute) {
    const { g, e } = shardGradient(
      layout,
      w,
      data,
      shardStart(step, r, replicas, BATCH_PER_REPLICA),
      BATCH_PER_REPLICA,
    );
    for (let i = 0; i < P; i++) {
      const gi = g[i] as number;
      sum[i] = (sum[i] as number) + gi;
      mag[i] = (mag[i] as number) + Math.abs(gi);
      err[i] = (err[i] as number) + (e[i] as number);
    }
  }
  // The ring adds the members' float32 gradients one hop at a time (ring.length − 1 additions),
  // then multiplies by float32(1/divisor): two more roundings.
  const gamR = gamma(roles.ring.length);
  const state = new Float64Array(2 * P);
  const bound = new Float64Array(2 * P);
  for (let i = 0; i < P; i++) {
    const G = (sum[i] as number) / roles.divisor;
    const eG = (gamR * (mag[i] as number) + (err[i] as number)) / roles.divisor + 2 * U * Math.abs(G);
    const v = before[P + i] as number;
    const v1 = MOMENTUM * v + G;
    // μ and lr are float32 constants on the GPU (one rounding each), then a product and a sum.
    const ev = eG + 2 * U * MOMENTUM * Math.abs(v) + U * Math.abs(v1);
    const w1 = (w[i] as number) - lr * v1;
    const ew = lr * ev + 2 * U * lr * Math.abs(v1) + U * Math.abs(w1);
    state[i] = w1;
    state[P + i] = v1;
    bound[i] = BOUND_MARGIN * ew + FLOOR;
    bound[P + i] = BOUND_MARGIN * ev + FLOOR;
  }
  return { state, bound };
}

export interface StepMiss {
  /** Index into weights‖momentum. */
  index: number;
  got: number;
  want: number;
  bound: number;
}

export interface StepComparison {
  /** The largest |got − want| ÷ bound (≤ 1: within). */
  worst: number;
  /** The element furthest past its bound, if any is. */
  miss: StepMiss | null;
}

/** How far the trainer's state after the step (`after`) is from the reference, in bounds. */
export function compareStep(ref: StepReference, after: Floats): StepComparison {
  let worst = 0;
  let miss: StepMiss | null = null;
  for (let i = 0; i < ref.state.length; i++) {
    const got = after[i] as number;
    const want = ref.state[i] as number;
    const bound = ref.bound[i] as number;
    const diff = Math.abs(got - want);
    // NaN (a dead replica's memory in the ring) is as far off as anything can be.
    const ratio = Number.isNaN(diff) ? Number.POSITIVE_INFINITY : diff / bound;
    if (ratio > worst) {
      worst = ratio;
      if (ratio > 1) miss = { index: i, got, want, bound };
    }
  }
  return { worst, miss };
}
