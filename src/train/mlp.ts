/**
 * The MLP's maths on the CPU, over Float64Array (the reference) or Float32Array (the CPU fallback,
 * where every stored intermediate is rounded to float32 as on the GPU). The WGSL kernels
 * (src/train/trainKernels.ts) compute the same sums in the same order.
 */
import { CLASSES, INPUTS, type Split } from "./data.ts";
import type { Layout } from "./model.ts";

export type Floats = Float32Array | Float64Array;

interface Scratch {
  acts: Floats[];
  deltas: Floats[];
}

const scratchCache = new WeakMap<Layout, Map<string, Scratch>>();

function scratchFor(layout: Layout, batch: number, make: (n: number) => Floats): Scratch {
  let m = scratchCache.get(layout);
  if (!m) {
    m = new Map();
    scratchCache.set(layout, m);
  }
  const key = `${batch}:${make(0).constructor.name}`;
  let s = m.get(key);
  if (!s) {
    const widths = [INPUTS, ...layout.layers.map((L) => L.fanOut)];
    s = { acts: widths.map((w) => make(batch * w)), deltas: widths.map((w) => make(batch * w)) };
    m.set(key, s);
  }
  return s;
}

/** Forward pass of `batch` points starting at `start` (wrapping over `points`); fills acts. */
function forward(layout: Layout, p: Floats, data: Split, start: number, batch: number, s: Scratch): void {
  const points = data.y.length;
  const x0 = s.acts[0] as Floats;
  for (let k = 0; k < batch; k++) {
    const i = (start + k) % points;
    for (let d = 0; d < INPUTS; d++) x0[k * INPUTS + d] = data.x[i * INPUTS + d] as number;
  }
  layout.layers.forEach((L, l) => {
    const a = s.acts[l] as Floats;
    const z = s.acts[l + 1] as Floats;
    for (let k = 0; k < batch; k++) {
      for (let j = 0; j < L.fanOut; j++) {
        let sum = p[L.b + j] as number;
        for (let i = 0; i < L.fanIn; i++)
          sum += (a[k * L.fanIn + i] as number) * (p[L.w + i * L.fanOut + j] as number);
        z[k * L.fanOut + j] = L.relu && sum < 0 ? 0 : sum;
      }
    }
  });
}

/** Softmax cross-entropy of one row of logits: the loss, and (p − onehot) written to `d` if given. */
function crossEntropy(z: Floats, row: number, label: number, d: Floats | null, scale: number): number {
  let max = Number.NEGATIVE_INFINITY;
  for (let c = 0; c < CLASSES; c++) max = Math.max(max, z[row * CLASSES + c] as number);
  let sum = 0;
  for (let c = 0; c < CLASSES; c++) sum += Math.exp((z[row * CLASSES + c] as number) - max);
  const loss = Math.log(sum) + max - (z[row * CLASSES + label] as number);
  if (d) {
    for (let c = 0; c < CLASSES; c++) {
      const pc = Math.exp((z[row * CLASSES + c] as number) - max) / sum;
      d[row * CLASSES + c] = (pc - (c === label ? 1 : 0)) * scale;
    }
  }
  return loss;
}

/**
 * Mean cross-entropy over the batch and its gradient, written into `grad` (every element). The
 * gradient is of the mean over this replica's shard: averaging the shards' gradients over the
 * participants gives the gradient of the mean over the participants' points.
 */
export function lossAndGradient(
  layout: Layout,
  p: Floats,
  data: Split,
  start: number,
  batch: number,
  grad: Floats,
): number {
  const make = (n: number): Floats => (p instanceof Float64Array ? new Float64Array(n) : new Float32Array(n));
  const s = scratchFor(layout, batch, make);
  forward(layout, p, data, start, batch, s);
  const points = data.y.length;
  const top = layout.layers.length;
  const logits = s.acts[top] as Floats;
  const dTop = s.deltas[top] as Floats;
  let loss = 0;
  for (let k = 0; k < batch; k++)
    loss += crossEntropy(logits, k, data.y[(start + k) % points] as number, dTop, 1 / batch);
  for (let l = top - 1; l >= 0; l--) {
    const L = layout.layers[l];
    if (!L) continue;
    const a = s.acts[l] as Floats;
    const dz = s.deltas[l + 1] as Floats;
    for (let i = 0; i < L.fanIn; i++) {
      for (let j = 0; j < L.fanOut; j++) {
        let sum = 0;
        for (let k = 0; k < batch; k++)
          sum += (a[k * L.fanIn + i] as number) * (dz[k * L.fanOut + j] as number);
        grad[L.w + i * L.fanOut + j] = sum;
      }
    }
    for (let j = 0; j < L.fanOut; j++) {
      let sum = 0;
      for (let k = 0; k < batch; k++) sum += dz[k * L.fanOut + j] as number;
      grad[L.b + j] = sum;
    }
    if (l === 0) break;
    // δ of the layer below, through the ReLU: zero where its output was clipped.
    const da = s.deltas[l] as Floats;
    for (let k = 0; k < batch; k++) {
      for (let i = 0; i < L.fanIn; i++) {
        let sum = 0;
        if ((a[k * L.fanIn + i] as number) > 0)
          for (let j = 0; j < L.fanOut; j++)
            sum += (dz[k * L.fanOut + j] as number) * (p[L.w + i * L.fanOut + j] as number);
        da[k * L.fanIn + i] = sum;
      }
    }
  }
  return loss / batch;
}

/** SGD with momentum, as PyTorch: v ← μ·v + g, w ← w − lr·v. */
export function sgdMomentum(p: Floats, v: Floats, g: Floats, lr: number, mu: number): void {
  for (let i = 0; i < p.length; i++) {
    v[i] = mu * (v[i] as number) + (g[i] as number);
    p[i] = (p[i] as number) - lr * (v[i] as number);
  }
}

export interface Evaluation {
  loss: number;
  accuracy: number;
}

/** Mean loss and accuracy over a whole split (the held-out points). */
export function evaluate(layout: Layout, p: Floats, data: Split): Evaluation {
  const n = data.y.length;
  const make = (m: number): Floats => (p instanceof Float64Array ? new Float64Array(m) : new Float32Array(m));
  const s = scratchFor(layout, n, make);
  forward(layout, p, data, 0, n, s);
  const logits = s.acts[layout.layers.length] as Floats;
  let loss = 0;
  let correct = 0;
  for (let k = 0; k < n; k++) {
    const label = data.y[k] as number;
    loss += crossEntropy(logits, k, label, null, 0);
    let best = 0;
    for (let c = 1; c < CLASSES; c++)
      if ((logits[k * CLASSES + c] as number) > (logits[k * CLASSES + best] as number)) best = c;
    if (best === label) correct++;
  }
  return { loss: loss / n, accuracy: correct / n };
}
