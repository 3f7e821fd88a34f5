/**
 * Splitting a device buffer into chunks that kernels can bind directly. WebGPU only accepts
 * storage-buffer binding offsets that are multiples of 256 bytes, so every chunk starts on a
 * 64-float boundary; only the last non-empty chunk may end off the grid (at the buffer's end).
 */

/** 256 bytes (minStorageBufferOffsetAlignment) in 4-byte floats. */
export const ALIGN_ELEMENTS = 64;

/** A half-open run of elements: [offset, offset + length). */
export interface Range {
  offset: number;
  length: number;
}

/**
 * `parts` contiguous chunks covering [0, count) exactly, in order. Blocks of `align` elements are
 * dealt out as evenly as possible, so chunk lengths differ by at most one block; when there are
 * fewer blocks than parts, the trailing chunks are empty.
 */
export function splitAligned(count: number, parts: number, align = ALIGN_ELEMENTS): Range[] {
  if (!Number.isInteger(count) || count < 0)
    throw new RangeError(`count must be a whole number ≥ 0, got ${count}`);
  if (!Number.isInteger(parts) || parts < 1)
    throw new RangeError(`parts must be a whole number ≥ 1, got ${parts}`);
  const blocks = Math.ceil(count / align);
  const base = Math.floor(blocks / parts);
  const extra = blocks % parts;
  const out: Range[] = [];
  let block = 0;
  for (let i = 0; i < parts; i++) {
    const n = base + (i < extra ? 1 : 0);
    const offset = Math.min(count, block * align);
    const end = Math.min(count, (block + n) * align);
    out.push({ offset, length: end - offset });
    block += n;
  }
  return out;
}

/** The range spanning chunks [first, last) of a contiguous split. */
export function spanOf(chunks: readonly Range[], first: number, last: number): Range {
  const a = chunks[first];
  const b = chunks[last - 1];
  if (!a || !b || last <= first) throw new RangeError(`no chunks in [${first}, ${last})`);
  return { offset: a.offset, length: b.offset + b.length - a.offset };
}
