/**
 * The CPU fallback: the same schedules run over typed arrays, for when there is no WebGPU (and as
 * the bench's CPU row). Sums are rounded to float32 after each addition, as the GPU kernels do.
 */
import type { BufRef, Op, Schedule } from "./schedule.ts";

export interface CpuBuffers {
  in: Array<Float32Array | undefined>;
  out: Array<Float32Array | undefined>;
}

function bufferOf(b: CpuBuffers, ref: BufRef): Float32Array {
  const a = b[ref.buf][ref.rank];
  if (!a) throw new RangeError(`device ${ref.rank} has no ${ref.buf} buffer`);
  return a;
}

export function runOpCpu(op: Op, b: CpuBuffers): void {
  const dst = bufferOf(b, { rank: op.dst, buf: "out" });
  const { offset, length } = op.range;
  const end = offset + length;
  if (op.kind === "scale") {
    for (let i = offset; i < end; i++) dst[i] = (dst[i] as number) * op.factor;
    return;
  }
  const srcs = op.sources.map((s) => bufferOf(b, s));
  const [first, second] = srcs;
  if (!first) return;
  // Two hot cases (copy, pairwise add) written out; the general sum is for one-shot.
  if (srcs.length === 1) {
    dst.set(first.subarray(offset, end), offset);
  } else if (srcs.length === 2 && second) {
    for (let i = offset; i < end; i++) dst[i] = (first[i] as number) + (second[i] as number);
  } else {
    // Source by source (streaming, like the GPU's grouped dispatches), not element by element.
    const firstSum = srcs.indexOf(dst) >= 0 ? dst : null;
    const rest = srcs.filter((a) => a !== firstSum);
    if (!firstSum) {
      const [a, b] = rest.splice(0, 2) as [Float32Array, Float32Array];
      for (let i = offset; i < end; i++) dst[i] = (a[i] as number) + (b[i] as number);
    }
    for (const a of rest) for (let i = offset; i < end; i++) dst[i] = (dst[i] as number) + (a[i] as number);
  }
}

export function runScheduleCpu(s: Schedule, b: CpuBuffers): void {
  for (const step of s.steps) for (const op of step.ops) runOpCpu(op, b);
}
