/**
 * The MLP: INPUTS → hidden → hidden → CLASSES, ReLU, softmax cross-entropy. All parameters live in
 * one flat array (what the all-reduce moves): per layer the weights W[i·fanOut + j] (row i = input
 * i), then the biases.
 */
import { Rng } from "../sim/rng.ts";
import { CLASSES, INPUTS } from "./data.ts";

export interface Layer {
  fanIn: number;
  fanOut: number;
  /** Offset of W in the flat parameter array. */
  w: number;
  /** Offset of the biases. */
  b: number;
  relu: boolean;
}

export interface Layout {
  hidden: number;
  layers: Layer[];
  count: number;
}

export function layoutFor(hidden: number): Layout {
  const dims = [INPUTS, hidden, hidden, CLASSES];
  const layers: Layer[] = [];
  let at = 0;
  for (let l = 0; l < 3; l++) {
    const fanIn = dims[l] as number;
    const fanOut = dims[l + 1] as number;
    layers.push({ fanIn, fanOut, w: at, b: at + fanIn * fanOut, relu: l < 2 });
    at += fanIn * fanOut + fanOut;
  }
  return { hidden, layers, count: at };
}

/** He-normal weights, zero biases, from the seed; float32 values, so every backend starts equal. */
export function initialParams(layout: Layout, seed: number): Float32Array {
  const rng = new Rng(seed ^ 0x1417_a115);
  const p = new Float32Array(layout.count);
  for (const L of layout.layers) {
    const sd = Math.sqrt(2 / L.fanIn);
    for (let i = 0; i < L.fanIn * L.fanOut; i++) {
      const g = Math.sqrt(-2 * Math.log(1 - rng.uniform())) * Math.cos(2 * Math.PI * rng.uniform());
      p[L.w + i] = sd * g;
    }
  }
  return p;
}

/**
 * The tensor an index of a replica's state (its tensors one after another, each `count` long)
 * falls in, as a person reads it: "layer 2 weights [3, 17]", "momentum of layer 3 biases [4]".
 * `prefixes` names the tensors in order (by default weights‖momentum).
 */
export function tensorAt(
  layout: Layout,
  index: number,
  prefixes: readonly string[] = ["", "momentum of "],
): string {
  const section = Math.floor(index / layout.count);
  const at = index - section * layout.count;
  const of = prefixes[section] ?? `tensor ${section} of `;
  for (const [l, L] of layout.layers.entries()) {
    if (at >= L.w && at < L.b) {
      const t = at - L.w;
      return `${of}layer ${l + 1} weights [${Math.floor(t / L.fanOut)}, ${t % L.fanOut}]`;
    }
    if (at >= L.b && at < L.b + L.fanOut) return `${of}layer ${l + 1} biases [${at - L.b}]`;
  }
  return `element ${index}`;
}
