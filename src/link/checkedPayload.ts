/**
 * Link format 2, the framing every JSON-valued key of the address uses:
 *
 *   2.<base64url( deflate(JSON, dictionary) ‖ CRC-32 of those deflated bytes, big-endian )>
 *
 * The check covers the exact bytes the link carries (the same bytes always inflate to the same
 * JSON, so it vouches for the JSON too), and base64url is decoded strictly: a changed character
 * or bit anywhere after the tag, even in bits DEFLATE ignores, is refused before inflating. Each
 * key has its own fixed dictionary; changing one means a new format tag.
 */
import { deflateSync, inflateSync, strFromU8, strToU8 } from "fflate";
import { describeDuplicateKey, firstDuplicateKey } from "../step/jsonSyntax.ts";
import { fromBase64Url, toBase64Url } from "./base64url.ts";
import { crc32 } from "./crc32.ts";
import { LinkError } from "./linkError.ts";

export const CHECKED_FORMAT = "2";
/** No JSON value of a link inflates past this: a link cannot make a tab allocate much. */
export const MAX_JSON_BYTES = 16 * 1024;

export function encodeChecked(value: unknown, dictionary: Uint8Array): string {
  const packed = deflateSync(strToU8(JSON.stringify(value)), { level: 9, dictionary });
  const framed = new Uint8Array(packed.length + 4);
  framed.set(packed);
  new DataView(framed.buffer).setUint32(packed.length, crc32(packed));
  return `${CHECKED_FORMAT}.${toBase64Url(framed)}`;
}

/** Inflate with a bounded output buffer; filling it means "too big". */
export function inflateBounded(packed: Uint8Array, dictionary: Uint8Array): string {
  const bytes = inflateSync(packed, { out: new Uint8Array(MAX_JSON_BYTES + 1), dictionary });
  if (bytes.length > MAX_JSON_BYTES) throw new Error(`it expands past ${MAX_JSON_BYTES} bytes`);
  return strFromU8(bytes);
}

/**
 * The JSON value of a format-2 body (the text after "2."). `what` names the value in messages,
 * e.g. "scenario (s=)".
 */
export function decodeChecked(body: string, dictionary: Uint8Array, what: string): unknown {
  let json: string;
  try {
    const framed = fromBase64Url(body, true);
    if (framed.length < 5) throw new Error("it is too short to hold anything");
    const packed = framed.subarray(0, framed.length - 4);
    const check = new DataView(framed.buffer, framed.byteOffset).getUint32(packed.length);
    if (crc32(packed) !== check)
      throw new Error("it fails its integrity check: it was changed or cut after it was made");
    json = inflateBounded(packed, dictionary);
  } catch (e) {
    throw new LinkError(`The link's ${what} could not be decoded: ${(e as Error).message}.`);
  }
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new LinkError(`The link's ${what} is not valid JSON.`);
  }
  refuseDuplicateKeys(json, what);
  return value;
}

/** JSON.parse keeps the last of a key given twice; a link that says two things is refused instead. */
export function refuseDuplicateKeys(json: string, what: string): void {
  const twice = firstDuplicateKey(json);
  if (twice) throw new LinkError(`The link's ${what} is refused: ${describeDuplicateKey(twice)}.`);
}
