/**
 * The WGSL the collectives run: one streaming kernel shape, dst[i] = (dst[i] +) Σ sourcesₖ[i]
 * over vec4s, generated for k sources, plus an in-place scale for AVG. Each binding is bound to
 * exactly the chunk it works on, so arrayLength() is the element count and no uniforms are needed.
 * Threads stride over the chunk, so a dispatch needs no more workgroups than the device likes.
 */

export const WORKGROUP_SIZE = 256;
/**
 * How many workgroups a dispatch launches at most; the grid-stride loop covers the rest. A GPU
 * wants thousands in flight; SwiftShader runs each workgroup as a CPU task, and measured about
 * twice the bandwidth with 64 than with 4096 (a 64 MiB vec4 add on 2 cores, 1.8 vs 0.45 GB/s).
 */
export function workgroupCap(software: boolean): number {
  return software ? 64 : 4096;
}

/**
 * How many inputs one dispatch sums at most (more are chained, accumulating). A GPU streams many
 * inputs at once happily; SwiftShader loses bandwidth per stream as they multiply (64 MiB each,
 * 2 cores: 1 input 1.7–2.1 GB/s, 2 inputs + accumulate 2.1, 8 inputs 0.8), so it gets pairs.
 */
export function sourcesPerDispatch(software: boolean, maxStorageBuffers: number): number {
  return Math.max(1, Math.min(software ? 2 : 8, maxStorageBuffers - 1));
}

export interface SumKernel {
  sources: number;
  /** dst is also an input (dst += Σ sources): the chunk's running sum is already in place. */
  accumulate: boolean;
}

export function sumKernelWgsl({ sources, accumulate }: SumKernel): string {
  if (sources < 1 && !accumulate) throw new RangeError("a sum needs at least one input");
  const decls = Array.from(
    { length: sources },
    (_, k) => `@group(0) @binding(${k + 1}) var<storage, read> s${k}: array<vec4f>;`,
  );
  const terms = [...(accumulate ? ["dst[i]"] : []), ...Array.from({ length: sources }, (_, k) => `s${k}[i]`)];
  return `
@group(0) @binding(0) var<storage, read_write> dst: array<vec4f>;
${decls.join("\n")}

@compute @workgroup_size(${WORKGROUP_SIZE})
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let n = arrayLength(&dst);
  let stride = groups.x * ${WORKGROUP_SIZE}u;
  for (var i = gid.x; i < n; i += stride) {
    dst[i] = ${terms.join(" + ")};
  }
}
`;
}

export const SCALE_WGSL = `
override factor: f32;
@group(0) @binding(0) var<storage, read_write> dst: array<vec4f>;

@compute @workgroup_size(${WORKGROUP_SIZE})
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let n = arrayLength(&dst);
  let stride = groups.x * ${WORKGROUP_SIZE}u;
  for (var i = gid.x; i < n; i += stride) {
    dst[i] = dst[i] * factor;
  }
}
`;

export function workgroupsFor(vec4s: number, cap: number): number {
  return Math.max(1, Math.min(cap, Math.ceil(vec4s / WORKGROUP_SIZE)));
}

/** Bytes a binding of `elements` floats spans: whole vec4s (the buffers are padded to 256 B). */
export function bindingBytes(elements: number): number {
  return Math.ceil(elements / 4) * 16;
}

/** Device buffers are padded to the 256-byte binding grid so the last chunk's vec4s stay inside. */
export function paddedBytes(elements: number): number {
  return Math.max(256, Math.ceil((elements * 4) / 256) * 256);
}
