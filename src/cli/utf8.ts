/**
 * Where a byte sequence stops being UTF-8. A file of another encoding decoded leniently turns its
 * bytes into U+FFFD and runs as something else; the CLI refuses it instead, naming the offset. The
 * rules are the Unicode standard's well-formed sequences (Table 3-7): no overlong forms, no
 * surrogates, nothing past U+10FFFF.
 */

/** The byte offset of the first ill-formed sequence in `bytes[0, length)`, or -1 when it is all UTF-8. */
export function firstInvalidUtf8(bytes: Uint8Array, length = bytes.length): number {
  let i = 0;
  while (i < length) {
    const b = bytes[i] ?? 0;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0; // no overlong three-byte form
      if (b === 0xed) hi = 0x9f; // no surrogates
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90; // no overlong four-byte form
      if (b === 0xf4) hi = 0x8f; // nothing past U+10FFFF
    } else return i;
    for (let k = 1; k <= need; k++) {
      const c = i + k < length ? (bytes[i + k] ?? -1) : -1;
      const [min, max] = k === 1 ? [lo, hi] : [0x80, 0xbf];
      if (c < min || c > max) return i;
    }
    i += need + 1;
  }
  return -1;
}
