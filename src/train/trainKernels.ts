/**
 * The MLP's WGSL: one thread per output element, sums in the same order as the CPU maths
 * (src/train/mlp.ts), sizes and offsets baked in as override constants. Weight gradients are
 * written straight into the executor's `in` buffer, so the all-reduce reads them where they are.
 */
import { CLASSES, INPUTS } from "./data.ts";

export const TRAIN_WORKGROUP = 64;

const PARAMS = "struct Params { offset: u32, lr: f32, pad0: u32, pad1: u32 }";

type Access = "read" | "read_write";
/** A binding of group 0, in order: a storage array, or the Params uniform. */
type Binding = readonly [name: string, access: Access, element: "f32" | "u32"] | "params";

/**
 * One compute entry point over a global thread index `gid.x`: the kernels differ only in their
 * override constants, bindings and body, so each states those and nothing else.
 */
function computeKernel(overrides: string[], bindings: Binding[], body: string): string {
  const usesParams = bindings.includes("params");
  const lines = [
    ...(usesParams ? [PARAMS] : []),
    ...overrides.map((o) => `override ${o};`),
    ...bindings.map((b, i) =>
      b === "params"
        ? `@group(0) @binding(${i}) var<uniform> u: Params;`
        : `@group(0) @binding(${i}) var<storage, ${b[1]}> ${b[0]}: array<${b[2]}>;`,
    ),
  ];
  return `
${lines.join("\n")}
@compute @workgroup_size(${TRAIN_WORKGROUP})
fn main(@builtin(global_invocation_id) gid: vec3u) {
${body}
}`;
}

/** x0[k] = the k-th point of the batch starting at u.offset (wrapping). */
export const GATHER_WGSL = computeKernel(
  ["B: u32", "NPTS: u32"],
  [["X", "read", "f32"], ["x0", "read_write", "f32"], "params"],
  `  let t = gid.x;
  if (t >= B * ${INPUTS}u) { return; }
  let k = t / ${INPUTS}u;
  let d = t % ${INPUTS}u;
  x0[t] = X[((u.offset + k) % NPTS) * ${INPUTS}u + d];`,
);

/** A dense layer's shape and where its weights (WOFF, row-major FIN×FOUT) and biases (BOFF) sit. */
const LAYER = ["B: u32", "FIN: u32", "FOUT: u32", "WOFF: u32"];

/** z[k, j] = (relu)(b[j] + Σᵢ a[k, i]·W[i, j]). */
export const FORWARD_WGSL = computeKernel(
  [...LAYER, "BOFF: u32", "RELU: bool"],
  [
    ["a", "read", "f32"],
    ["p", "read", "f32"],
    ["z", "read_write", "f32"],
  ],
  `  let t = gid.x;
  if (t >= B * FOUT) { return; }
  let k = t / FOUT;
  let j = t % FOUT;
  var s = p[BOFF + j];
  for (var i = 0u; i < FIN; i++) { s = s + a[k * FIN + i] * p[WOFF + i * FOUT + j]; }
  if (RELU && s < 0.0) { s = 0.0; }
  z[t] = s;`,
);

/**
 * A kernel per point k of the batch over the logits z and labels Y: computes the point's softmax
 * loss, then runs `tail` (which may use row, m, sum and label).
 */
function perPointLoss(out: string, tail: string): string {
  return computeKernel(
    ["B: u32", "NPTS: u32"],
    [
      ["z", "read", "f32"],
      ["Y", "read", "u32"],
      [out, "read_write", "f32"],
      ["losses", "read_write", "f32"],
      "params",
    ],
    `  let k = gid.x;
  if (k >= B) { return; }
  let row = k * ${CLASSES}u;
  var m = z[row];
  for (var c = 1u; c < ${CLASSES}u; c++) { m = max(m, z[row + c]); }
  var sum = 0.0;
  for (var c = 0u; c < ${CLASSES}u; c++) { sum = sum + exp(z[row + c] - m); }
  let label = Y[(u.offset + k) % NPTS];
  losses[k] = log(sum) + m - z[row + label];
${tail}`,
  );
}

/** Per point: its loss, and dz = (softmax − onehot)/B, the gradient of the shard's mean loss. */
export const CROSS_ENTROPY_WGSL = perPointLoss(
  "dz",
  `  for (var c = 0u; c < ${CLASSES}u; c++) {
    let pc = exp(z[row + c] - m) / sum;
    dz[row + c] = (pc - select(0.0, 1.0, c == label)) * (1.0 / f32(B));
  }`,
);

/** Held-out points: each one's loss, and 1 where the top logit is its label. */
export const EVALUATE_WGSL = perPointLoss(
  "hits",
  `  var best = 0u;
  for (var c = 1u; c < ${CLASSES}u; c++) { if (z[row + c] > z[row + best]) { best = c; } }
  hits[k] = select(0.0, 1.0, best == label);`,
);

/** g[W] = Σₖ a[k, i]·dz[k, j]; then g[b] = Σₖ dz[k, j]. */
export const WEIGHT_GRAD_WGSL = computeKernel(
  [...LAYER, "BOFF: u32"],
  [
    ["a", "read", "f32"],
    ["dz", "read", "f32"],
    ["g", "read_write", "f32"],
  ],
  `  let t = gid.x;
  if (t < FIN * FOUT) {
    let i = t / FOUT;
    let j = t % FOUT;
    var s = 0.0;
    for (var k = 0u; k < B; k++) { s = s + a[k * FIN + i] * dz[k * FOUT + j]; }
    g[WOFF + t] = s;
  } else if (t < FIN * FOUT + FOUT) {
    let j = t - FIN * FOUT;
    var s = 0.0;
    for (var k = 0u; k < B; k++) { s = s + dz[k * FOUT + j]; }
    g[BOFF + j] = s;
  }`,
);

/** da[k, i] = Σⱼ dz[k, j]·W[i, j] where the layer's ReLU passed a[k, i], else 0. */
export const INPUT_GRAD_WGSL = computeKernel(
  LAYER,
  [
    ["a", "read", "f32"],
    ["dz", "read", "f32"],
    ["p", "read", "f32"],
    ["da", "read_write", "f32"],
  ],
  `  let t = gid.x;
  if (t >= B * FIN) { return; }
  let k = t / FIN;
  let i = t % FIN;
  var s = 0.0;
  if (a[t] > 0.0) {
    for (var j = 0u; j < FOUT; j++) { s = s + dz[k * FOUT + j] * p[WOFF + i * FOUT + j]; }
  }
  da[t] = s;`,
);

/** SGD with momentum on the averaged gradient: v ← μ·v + g, w ← w − lr·v. */
export const SGD_WGSL = computeKernel(
  ["N: u32", "MU: f32"],
  [["w", "read_write", "f32"], ["v", "read_write", "f32"], ["g", "read", "f32"], "params"],
  `  let t = gid.x;
  if (t >= N) { return; }
  let vt = MU * v[t] + g[t];
  v[t] = vt;
  w[t] = w[t] - u.lr * vt;`,
);

/** Compiled kernels for one GPUDevice, one pipeline per shape (built on first use). */
export class TrainPipelines {
  private readonly cache = new Map<string, GPUComputePipeline>();
  private readonly modules = new Map<string, GPUShaderModule>();

  constructor(readonly device: GPUDevice) {}

  get(code: string, constants: Record<string, number>): GPUComputePipeline {
    const key = `${code}\n${JSON.stringify(constants)}`;
    let p = this.cache.get(key);
    if (!p) {
      let module = this.modules.get(code);
      if (!module) {
        module = this.device.createShaderModule({ code });
        this.modules.set(code, module);
      }
      p = this.device.createComputePipeline({
        layout: "auto",
        compute: { module, entryPoint: "main", constants },
      });
      this.cache.set(key, p);
    }
    return p;
  }
}

export function groupsFor(threads: number): number {
  return Math.max(1, Math.ceil(threads / TRAIN_WORKGROUP));
}
