/**
 * A SHA-256 over any value a run returns, doubles by their bits (so −0, NaN and the last ulp
 * count), typed arrays and arrays by element, objects by sorted key. What "bit for bit" means in
 * the digests (scripts/engine-digest.ts) and in the recorded version-6 links (v6Compat.test.ts).
 */
import { createHash, type Hash } from "node:crypto";

const bits = new DataView(new ArrayBuffer(8));

/** Feeds v into h, as bitDigest hashes it (for one digest over many values). */
export function feedBits(h: Hash, v: unknown): void {
  if (typeof v === "number") {
    bits.setFloat64(0, v);
    h.update(`n${bits.getBigUint64(0).toString(16)};`);
  } else if (v === null || v === undefined || typeof v !== "object") h.update(`${typeof v}:${String(v)};`);
  else if (ArrayBuffer.isView(v)) {
    const a = v as unknown as ArrayLike<number>;
    h.update(`[${a.length}`);
    for (let i = 0; i < a.length; i++) feedBits(h, a[i]);
    h.update("]");
  } else if (Array.isArray(v)) {
    h.update(`[${v.length}`);
    for (const x of v) feedBits(h, x);
    h.update("]");
  } else {
    for (const k of Object.keys(v).sort()) {
      h.update(`${k}=`);
      feedBits(h, (v as Record<string, unknown>)[k]);
    }
    h.update("}");
  }
}

/** The hex SHA-256 of v's bits. */
export function bitDigest(v: unknown): string {
  const h = createHash("sha256");
  feedBits(h, v);
  return h.digest("hex");
}
