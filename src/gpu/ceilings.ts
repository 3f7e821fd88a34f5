/**
 * The adapter's own bandwidth ceilings, measured in the same run as the collectives: a large
 * copyBufferToBuffer, and streaming vec4 kernels (copy: read 1 write 1; add: read 2 write 1). The
 * efficiency figures divide by the better streaming kernel, so they are not flattered.
 */
import { encodeDispatches } from "./dispatches.ts";
import { bindingBytes, workgroupsFor } from "./kernels.ts";
import type { Pipelines } from "./pipelines.ts";

export interface Ceilings {
  bytes: number;
  /** Bytes read + written per second. */
  copyBufferGBps: number;
  streamCopyGBps: number;
  streamAddGBps: number;
  /** The one efficiency is measured against: max(stream copy, stream add). */
  streamingGBps: number;
  timer: "gpu-timestamp" | "wall-clock";
}

async function timeSubmit(
  device: GPUDevice,
  timestamps: boolean,
  encode: (enc: GPUCommandEncoder, tw?: GPUComputePassTimestampWrites) => void,
) {
  const q = timestamps ? device.createQuerySet({ type: "timestamp", count: 2 }) : null;
  const resolve = q
    ? device.createBuffer({ size: 16, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC })
    : null;
  const read = q
    ? device.createBuffer({ size: 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST })
    : null;
  const enc = device.createCommandEncoder();
  encode(enc, q ? { querySet: q, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 } : undefined);
  if (q && resolve && read) {
    enc.resolveQuerySet(q, 0, 2, resolve, 0);
    enc.copyBufferToBuffer(resolve, 0, read, 0, 16);
  }
  const t0 = performance.now();
  device.queue.submit([enc.finish()]);
  await device.queue.onSubmittedWorkDone();
  const wall = (performance.now() - t0) / 1000;
  if (!q || !read || !resolve) return { seconds: wall, gpu: false };
  await read.mapAsync(GPUMapMode.READ);
  const ts = new BigUint64Array(read.getMappedRange().slice(0));
  read.destroy();
  resolve.destroy();
  q.destroy();
  const ns = Number((ts[1] ?? 0n) - (ts[0] ?? 0n));
  return ns > 0 ? { seconds: ns / 1e9, gpu: true } : { seconds: wall, gpu: false };
}

/** Best of `reps` at `bytes` per buffer. copyBufferToBuffer has no pass, so it is wall-clock timed. */
export async function measureCeilings(
  pipes: Pipelines,
  timestamps: boolean,
  bytes: number,
  reps = 3,
): Promise<Ceilings> {
  const device = pipes.device;
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
  const [a, b, c] = [0, 1, 2].map((i) =>
    device.createBuffer({ size: bytes, usage, label: `ceiling ${i}` }),
  ) as [GPUBuffer, GPUBuffer, GPUBuffer];
  const elements = bytes / 4;
  const span = { offset: 0, size: bindingBytes(elements) };
  const workgroups = workgroupsFor(Math.ceil(elements / 4), pipes.maxWorkgroups);
  const kernel = (sources: GPUBuffer[]) => {
    const pipeline = pipes.sum({ sources: sources.length, accumulate: false });
    const bindGroup = device.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: [c, ...sources].map((buffer, binding) => ({ binding, resource: { buffer, ...span } })),
    });
    return { pipeline, bindGroup, workgroups, bytes: (sources.length + 1) * bytes };
  };
  const copyK = kernel([a]);
  const addK = kernel([a, b]);
  let copyBuffer = 0;
  let streamCopy = 0;
  let streamAdd = 0;
  let allGpu = timestamps;
  try {
    for (let i = 0; i < reps; i++) {
      const cb = await timeSubmit(device, false, (enc) => enc.copyBufferToBuffer(a, 0, c, 0, bytes));
      copyBuffer = Math.max(copyBuffer, (2 * bytes) / cb.seconds);
      for (const k of [copyK, addK]) {
        const t = await timeSubmit(device, timestamps, (enc, tw) => {
          const pass = enc.beginComputePass(tw ? { timestampWrites: tw } : {});
          encodeDispatches(pass, [k]);
          pass.end();
        });
        allGpu &&= t.gpu;
        const rate = k.bytes / t.seconds;
        if (k === copyK) streamCopy = Math.max(streamCopy, rate);
        else streamAdd = Math.max(streamAdd, rate);
      }
    }
  } finally {
    a.destroy();
    b.destroy();
    c.destroy();
  }
  return {
    bytes,
    copyBufferGBps: copyBuffer / 1e9,
    streamCopyGBps: streamCopy / 1e9,
    streamAddGBps: streamAdd / 1e9,
    streamingGBps: Math.max(streamCopy, streamAdd) / 1e9,
    timer: allGpu ? "gpu-timestamp" : "wall-clock",
  };
}

/** The CPU's streaming ceiling for the typed-array fallback: c = a + b and c = a over `elements`. */
export function measureCpuCeilings(elements: number, reps = 3): Ceilings {
  const a = new Float32Array(elements).fill(1);
  const b = new Float32Array(elements).fill(2);
  const c = new Float32Array(elements);
  let add = 0;
  let copy = 0;
  for (let r = 0; r < reps; r++) {
    let t0 = performance.now();
    for (let i = 0; i < elements; i++) c[i] = (a[i] as number) + (b[i] as number);
    add = Math.max(add, (12 * elements) / ((performance.now() - t0) / 1000));
    t0 = performance.now();
    c.set(a);
    copy = Math.max(copy, (8 * elements) / ((performance.now() - t0) / 1000));
  }
  return {
    bytes: elements * 4,
    copyBufferGBps: copy / 1e9,
    streamCopyGBps: copy / 1e9,
    streamAddGBps: add / 1e9,
    streamingGBps: Math.max(add, copy) / 1e9,
    timer: "wall-clock",
  };
}

/** The better of two measurements, figure by figure (a ceiling is the best the adapter showed). */
export function bestOf(a: Ceilings, b: Ceilings): Ceilings {
  return {
    bytes: Math.max(a.bytes, b.bytes),
    copyBufferGBps: Math.max(a.copyBufferGBps, b.copyBufferGBps),
    streamCopyGBps: Math.max(a.streamCopyGBps, b.streamCopyGBps),
    streamAddGBps: Math.max(a.streamAddGBps, b.streamAddGBps),
    streamingGBps: Math.max(a.streamingGBps, b.streamingGBps),
    timer: a.timer === b.timer ? a.timer : "wall-clock",
  };
}
