/**
 * DiLoCo mode's WGSL, one thread per parameter, the same operations in the same order as the CPU
 * maths (src/train/diloco.ts): AdamW on a gradient (the replica's own, or the ring's average),
 * the pseudo-gradient θ_outer − θ written into the executor's `in` buffer for the all-reduce, and
 * the outer Nesterov step reading the average from `out`.
 */
import { TRAIN_WORKGROUP } from "./trainKernels.ts";

const HEAD = `@compute @workgroup_size(${TRAIN_WORKGROUP})
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let t = gid.x;
  if (t >= N) { return; }`;

/** The AdamW step's uniform: lr and the two bias corrections (1 − βᵗ) of this replica's step t. */
export const ADAMW_WGSL = `
struct Adam { lr: f32, bc1: f32, bc2: f32, pad: u32 }
override N: u32;
override B1: f32;
override B2: f32;
override EPS: f32;
override WD: f32;
@group(0) @binding(0) var<storage, read_write> w: array<f32>;
@group(0) @binding(1) var<storage, read_write> m: array<f32>;
@group(0) @binding(2) var<storage, read_write> v: array<f32>;
@group(0) @binding(3) var<storage, read> g: array<f32>;
@group(0) @binding(4) var<uniform> a: Adam;
${HEAD}
  let gi = g[t];
  let m1 = B1 * m[t] + (1.0 - B1) * gi;
  let v1 = B2 * v[t] + (1.0 - B2) * gi * gi;
  m[t] = m1;
  v[t] = v1;
  let mh = m1 / a.bc1;
  let vh = v1 / a.bc2;
  w[t] = w[t] * (1.0 - a.lr * WD) - a.lr * mh / (sqrt(vh) + EPS);
}`;

/** Δ = θ_outer − θ, into the all-reduce's input. */
export const PSEUDO_GRADIENT_WGSL = `
override N: u32;
@group(0) @binding(0) var<storage, read> o: array<f32>;
@group(0) @binding(1) var<storage, read> w: array<f32>;
@group(0) @binding(2) var<storage, read_write> delta: array<f32>;
${HEAD}
  delta[t] = o[t] - w[t];
}`;

/** Nesterov on the averaged Δ: b ← μb + Δ; θ_outer ← θ_outer − lr(Δ + μb); then θ ← θ_outer. */
export const OUTER_NESTEROV_WGSL = `
struct Params { offset: u32, lr: f32, pad0: u32, pad1: u32 }
override N: u32;
override MU: f32;
@group(0) @binding(0) var<storage, read_write> o: array<f32>;
@group(0) @binding(1) var<storage, read_write> b: array<f32>;
@group(0) @binding(2) var<storage, read> avg: array<f32>;
@group(0) @binding(3) var<storage, read_write> w: array<f32>;
@group(0) @binding(4) var<uniform> u: Params;
${HEAD}
  let d = avg[t];
  let b1 = MU * b[t] + d;
  b[t] = b1;
  let o1 = o[t] - u.lr * (d + MU * b1);
  o[t] = o1;
  w[t] = o1;
}`;
