/**
 * The training kernels as WebGPU dispatches: buffers and bind groups, and one batch's forward
 * (and, for training, backward) pass as a list of dispatches, which the trainer records once and
 * submits every step (src/train/gpuTrainer.ts) and a device's evaluation submits on the test set
 * (src/train/trainDevice.ts).
 */

import { INPUTS } from "./data.ts";
import type { Layout } from "./model.ts";
import {
  CROSS_ENTROPY_WGSL,
  EVALUATE_WGSL,
  FORWARD_WGSL,
  GATHER_WGSL,
  groupsFor,
  INPUT_GRAD_WGSL,
  type TrainPipelines,
  WEIGHT_GRAD_WGSL,
} from "./trainKernels.ts";

export interface Dispatch {
  pipeline: GPUComputePipeline;
  bind: GPUBindGroup;
  groups: number;
}

// The usage flags are read at call time: GPUBufferUsage does not exist where there is no WebGPU
// (Node, where the stores that import this module are unit-tested).
export function buffer(
  device: GPUDevice,
  floats: number,
  label: string,
  usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC,
): GPUBuffer {
  return device.createBuffer({ size: Math.max(16, Math.ceil((floats * 4) / 16) * 16), usage, label });
}

export function bindGroup(device: GPUDevice, pipeline: GPUComputePipeline, bufs: GPUBuffer[]): GPUBindGroup {
  return device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: bufs.map((b, i) => ({ binding: i, resource: { buffer: b } })),
  });
}

export function encode(enc: GPUCommandEncoder, ds: readonly Dispatch[]): void {
  const pass = enc.beginComputePass();
  for (const d of ds) {
    pass.setPipeline(d.pipeline);
    pass.setBindGroup(0, d.bind);
    pass.dispatchWorkgroups(d.groups);
  }
  pass.end();
}

/** The forward pass (and, for training, the backward) of one batch shape, as dispatches. */
export function passDispatches(
  pipes: TrainPipelines,
  layout: Layout,
  b: number,
  points: number,
  io: {
    X: GPUBuffer;
    Y: GPUBuffer;
    uniform: GPUBuffer;
    p: GPUBuffer;
    acts: GPUBuffer[];
    deltas: GPUBuffer[];
  },
  tail:
    | { kind: "train"; losses: GPUBuffer; grad: GPUBuffer }
    | { kind: "eval"; losses: GPUBuffer; hits: GPUBuffer },
): Dispatch[] {
  const d = pipes.device;
  const ds: Dispatch[] = [];
  const gather = pipes.get(GATHER_WGSL, { B: b, NPTS: points });
  ds.push({
    pipeline: gather,
    bind: bindGroup(d, gather, [io.X, io.acts[0] as GPUBuffer, io.uniform]),
    groups: groupsFor(b * INPUTS),
  });
  layout.layers.forEach((L, l) => {
    const f = pipes.get(FORWARD_WGSL, {
      B: b,
      FIN: L.fanIn,
      FOUT: L.fanOut,
      WOFF: L.w,
      BOFF: L.b,
      RELU: L.relu ? 1 : 0,
    });
    ds.push({
      pipeline: f,
      bind: bindGroup(d, f, [io.acts[l] as GPUBuffer, io.p, io.acts[l + 1] as GPUBuffer]),
      groups: groupsFor(b * L.fanOut),
    });
  });
  const top = layout.layers.length;
  const logits = io.acts[top] as GPUBuffer;
  if (tail.kind === "eval") {
    const e = pipes.get(EVALUATE_WGSL, { B: b, NPTS: points });
    ds.push({
      pipeline: e,
      bind: bindGroup(d, e, [logits, io.Y, tail.hits, tail.losses, io.uniform]),
      groups: groupsFor(b),
    });
    return ds;
  }
  const ce = pipes.get(CROSS_ENTROPY_WGSL, { B: b, NPTS: points });
  ds.push({
    pipeline: ce,
    bind: bindGroup(d, ce, [logits, io.Y, io.deltas[top] as GPUBuffer, tail.losses, io.uniform]),
    groups: groupsFor(b),
  });
  for (let l = top - 1; l >= 0; l--) {
    const L = layout.layers[l];
    if (!L) continue;
    const wg = pipes.get(WEIGHT_GRAD_WGSL, { B: b, FIN: L.fanIn, FOUT: L.fanOut, WOFF: L.w, BOFF: L.b });
    const a = io.acts[l] as GPUBuffer;
    const dz = io.deltas[l + 1] as GPUBuffer;
    ds.push({
      pipeline: wg,
      bind: bindGroup(d, wg, [a, dz, tail.grad]),
      groups: groupsFor(L.fanIn * L.fanOut + L.fanOut),
    });
    if (l === 0) break;
    const ig = pipes.get(INPUT_GRAD_WGSL, { B: b, FIN: L.fanIn, FOUT: L.fanOut, WOFF: L.w });
    ds.push({
      pipeline: ig,
      bind: bindGroup(d, ig, [a, dz, io.p, io.deltas[l] as GPUBuffer]),
      groups: groupsFor(b * L.fanIn),
    });
  }
  return ds;
}
