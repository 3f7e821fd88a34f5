/**
 * The data set, generated from the seed (nothing is downloaded): interleaved spirals, one arm per
 * class, with Gaussian noise. Arms that wind 1.5 turns overlap enough that a small MLP keeps
 * improving for hundreds of steps. Points are rounded to float32 once, here, so the GPU, the CPU
 * fallback and the float64 reference all see the very same inputs.
 */
import { Rng } from "../sim/rng.ts";

export const INPUTS = 2;
export const CLASSES = 5;
export const TRAIN_POINTS = 4096;
export const TEST_POINTS = 512;
const TURNS = 1.0;
const NOISE = 0.06;

export interface Split {
  /** Row-major, INPUTS per point. */
  x: Float32Array;
  y: Uint32Array;
}

export interface DataSet {
  train: Split;
  test: Split;
}

function gaussian(rng: Rng): number {
  // Box–Muller; 1 − u keeps the log finite.
  return Math.sqrt(-2 * Math.log(1 - rng.uniform())) * Math.cos(2 * Math.PI * rng.uniform());
}

function spiralSplit(rng: Rng, points: number): Split {
  const x = new Float32Array(points * INPUTS);
  const y = new Uint32Array(points);
  for (let i = 0; i < points; i++) {
    const c = rng.below(CLASSES);
    const t = rng.uniform();
    const angle = (2 * Math.PI * c) / CLASSES + 2 * Math.PI * TURNS * t;
    const r = 0.1 + 0.9 * t;
    x[2 * i] = r * Math.cos(angle) + NOISE * gaussian(rng);
    x[2 * i + 1] = r * Math.sin(angle) + NOISE * gaussian(rng);
    y[i] = c;
  }
  return { x, y };
}

/** Independent draws for the two splits: the held-out points are never trained on. */
export function makeDataSet(seed: number): DataSet {
  const rng = new Rng(seed ^ 0x5eed_da7a);
  return { train: spiralSplit(rng, TRAIN_POINTS), test: spiralSplit(rng, TEST_POINTS) };
}

/**
 * Where replica r's shard of step s's global batch starts: the global batch is R·b consecutive
 * points (wrapping), replica r takes the r-th b of them. Points were drawn i.i.d., so consecutive
 * slices are random batches. A replica that is down does not train, and its shard goes unused.
 */
export function shardStart(step: number, replica: number, replicas: number, perReplica: number): number {
  return (step * replicas * perReplica + replica * perReplica) % TRAIN_POINTS;
}
