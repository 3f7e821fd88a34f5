/** Turning a schedule operation into compute dispatches on one GPUDevice. */
import { bindingBytes, workgroupsFor } from "./kernels.ts";
import type { Pipelines } from "./pipelines.ts";
import type { BufRef, Op } from "./schedule.ts";

export interface Dispatch {
  pipeline: GPUComputePipeline;
  bindGroup: GPUBindGroup;
  workgroups: number;
  /** Bytes read + written, to split work across submits. */
  bytes: number;
}

/**
 * The dispatches for one operation. `bufferOf` maps each source to a buffer on this device (the
 * separate mode passes the local copy of a remote chunk). A source equal to the destination turns
 * into an accumulate, since a buffer may not be bound read-only and writable in one dispatch; more
 * sources than one dispatch can bind are summed in groups, the later ones accumulating.
 */
export function dispatchesFor(
  pipes: Pipelines,
  op: Op,
  out: GPUBuffer,
  bufferOf: (ref: BufRef) => GPUBuffer,
): Dispatch[] {
  const { offset, length } = op.range;
  if (length === 0) return [];
  const span = { offset: offset * 4, size: bindingBytes(length) };
  const workgroups = workgroupsFor(Math.ceil(length / 4), pipes.maxWorkgroups);
  const device = pipes.device;
  if (op.kind === "scale") {
    const pipeline = pipes.scale(op.factor);
    const bindGroup = device.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: [{ binding: 0, resource: { buffer: out, ...span } }],
    });
    return [{ pipeline, bindGroup, workgroups, bytes: 2 * length * 4 }];
  }
  const self = op.sources.some((s) => s.rank === op.dst && s.buf === "out");
  const others = op.sources.filter((s) => !(s.rank === op.dst && s.buf === "out"));
  const groups: BufRef[][] = [];
  for (let i = 0; i < others.length; i += pipes.maxSources)
    groups.push(others.slice(i, i + pipes.maxSources));
  return groups.map((group, g) => {
    const accumulate = self || g > 0;
    const pipeline = pipes.sum({ sources: group.length, accumulate });
    const bindGroup = device.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: out, ...span } },
        ...group.map((ref, k) => ({ binding: k + 1, resource: { buffer: bufferOf(ref), ...span } })),
      ],
    });
    const bytes = (group.length + (accumulate ? 2 : 1)) * length * 4;
    return { pipeline, bindGroup, workgroups, bytes };
  });
}

export function encodeDispatches(pass: GPUComputePassEncoder, ds: readonly Dispatch[]): void {
  for (const d of ds) {
    pass.setPipeline(d.pipeline);
    pass.setBindGroup(0, d.bindGroup);
    pass.dispatchWorkgroups(d.workgroups);
  }
}
