/**
 * base64url without padding (RFC 4648 §5), written out rather than through btoa/atob so the link
 * codec runs anywhere (it is type-checked with the bare ECMAScript library). `strict` decoding
 * also refuses a non-canonical text: one whose last character carries bits the bytes do not use,
 * so two different texts can never decode to the same bytes and a changed character never goes
 * unnoticed.
 */
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const VALUE = new Map([...ALPHABET].map((c, i) => [c, i]));

export function toBase64Url(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let k = 0; k < chars; k++) out += ALPHABET[(n >>> (18 - 6 * k)) & 63];
  }
  return out;
}

/** Bytes of a base64url text; throws an Error saying what is wrong with the text. */
export function fromBase64Url(text: string, strict = false): Uint8Array {
  if (text.length % 4 === 1) throw new Error("its length is not one base64url can have");
  const out = new Uint8Array(Math.floor((text.length * 6) / 8));
  let acc = 0;
  let bits = 0;
  let at = 0;
  for (const c of text) {
    const v = VALUE.get(c);
    if (v === undefined) throw new Error("it contains characters that base64url does not use");
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[at++] = (acc >>> bits) & 0xff;
    }
  }
  if (strict && (acc & ((1 << bits) - 1)) !== 0) throw new Error("its last character was altered");
  return out;
}
