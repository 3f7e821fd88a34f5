/** Per-device input/output buffers, and reading them back. */
import { paddedBytes } from "./kernels.ts";

export interface DeviceBuffers {
  in: GPUBuffer;
  out: GPUBuffer;
}

export function createDeviceBuffers(device: GPUDevice, count: number, rank: number): DeviceBuffers {
  const size = paddedBytes(count);
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
  return {
    in: device.createBuffer({ size, usage, label: `device ${rank} in` }),
    out: device.createBuffer({ size, usage, label: `device ${rank} out` }),
  };
}

/** Copies `count` floats from `src` (at element `offset`) to the host. */
export async function readBack(
  device: GPUDevice,
  src: GPUBuffer,
  offset: number,
  count: number,
): Promise<Float32Array> {
  const bytes = Math.ceil((count * 4) / 4) * 4;
  const staging = device.createBuffer({
    size: Math.max(4, bytes),
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  const enc = device.createCommandEncoder();
  enc.copyBufferToBuffer(src, offset * 4, staging, 0, bytes);
  device.queue.submit([enc.finish()]);
  try {
    await staging.mapAsync(GPUMapMode.READ);
    return new Float32Array(staging.getMappedRange(0, bytes).slice(0));
  } finally {
    staging.destroy();
  }
}

const nanCache = new Map<number, Float32Array>();

/** A NaN-filled array of `count` floats (cached: poisoning happens before every run). */
export function nanArray(count: number): Float32Array {
  let a = nanCache.get(count);
  if (!a) {
    nanCache.clear();
    a = new Float32Array(count).fill(Number.NaN);
    nanCache.set(count, a);
  }
  return a;
}
