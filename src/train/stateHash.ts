/** A replica's state (weights, then momentum) as a fingerprint of its exact float32 bits. */
export function stateHash(...parts: readonly Float32Array[]): string {
  // Two FNV-1a lanes with different offsets: 64 bits, so a collision by chance is not a worry.
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (const p of parts) {
    const w = new Uint32Array(p.buffer, p.byteOffset, p.length);
    for (let i = 0; i < w.length; i++) {
      const x = w[i] as number;
      a = Math.imul(a ^ x, 0x01000193);
      b = Math.imul(b ^ (x >>> 16) ^ (x << 16), 0x01000193);
    }
  }
  return `${(a >>> 0).toString(16).padStart(8, "0")}${(b >>> 0).toString(16).padStart(8, "0")}`;
}
