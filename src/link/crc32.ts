/**
 * CRC-32 (IEEE 802.3, the polynomial of zip, PNG and gzip: reflected 0xEDB88320, initial and final
 * value 0xFFFFFFFF), table-driven. Share links of format 2 carry it: a CRC-32 detects every burst
 * of changed bits up to 32 bits long, so every one-character or one-bit change to a link is caught,
 * not just most of them.
 */
const TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** The CRC-32 of `bytes`, as an unsigned 32-bit integer. */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
