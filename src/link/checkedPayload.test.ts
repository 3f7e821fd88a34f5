/**
 * The framing of format 2 (every JSON key of the address) and format 3 (a replay's scenario), each
 * refusal on its own: a last character with stray bits (strict base64url, which the CRC cannot
 * see, since those bits are not in the bytes it covers), and a JSON value past its size bound.
 */
import { describe, expect, it } from "vitest";
import { fromBase64Url } from "./base64url.ts";
import { decodeChecked, encodeChecked, MAX_JSON_BYTES } from "./checkedPayload.ts";
import { LinkError } from "./linkError.ts";
import { encodeReplayPayload, replayPayloadBytes } from "./replayLink.ts";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const DICTIONARY = new TextEncoder().encode('{"name":"');

/**
 * The body (after the tag) with its last character's lowest bit flipped, for a body whose last
 * character carries bits no byte uses (its length is not a multiple of 4): the same bytes.
 */
function strayBit(body: string): string {
  expect(body.length % 4).not.toBe(0);
  const last = ALPHABET.indexOf(body.at(-1) ?? "");
  const changed = `${body.slice(0, -1)}${ALPHABET[last ^ 1]}`;
  // The bytes are the same: only strict decoding can tell the two texts apart.
  expect(fromBase64Url(changed)).toEqual(fromBase64Url(body));
  return changed;
}

/** A value whose framed body does not fill its last base64url character. */
function bodyWithStrayBits(encode: (v: unknown) => string): string {
  for (let n = 0; n < 10; n++) {
    const body = encode({ name: "x".repeat(n) }).slice(2);
    if (body.length % 4 !== 0) return body;
  }
  throw new Error("no body of a length with stray bits");
}

describe("format 2 (checkedPayload)", () => {
  it("refuses a last character with stray bits, though the bytes and their check are the same", () => {
    const body = bodyWithStrayBits((v) => encodeChecked(v, DICTIONARY));
    expect(decodeChecked(body, DICTIONARY, "test (t=)")).toEqual({ name: expect.any(String) });
    const changed = strayBit(body);
    expect(() => decodeChecked(changed, DICTIONARY, "test (t=)")).toThrow(LinkError);
    expect(() => decodeChecked(changed, DICTIONARY, "test (t=)")).toThrow(/test \(t=\).*altered/);
  });

  it(`takes a value of ${MAX_JSON_BYTES} bytes of JSON and refuses one byte more, by its size`, () => {
    // JSON.stringify of a string of n characters is n + 2 bytes (its quotes).
    const fits = "x".repeat(MAX_JSON_BYTES - 2);
    expect(decodeChecked(encodeChecked(fits, DICTIONARY).slice(2), DICTIONARY, "test (t=)")).toBe(fits);
    const over = encodeChecked(`${fits}x`, DICTIONARY).slice(2);
    // Small on the wire (it compresses), refused for what it inflates to.
    expect(over.length).toBeLessThan(200);
    expect(() => decodeChecked(over, DICTIONARY, "test (t=)")).toThrow(
      new RegExp(`test \\(t=\\).*expands past ${MAX_JSON_BYTES} bytes`),
    );
  });
});

describe("format 3 (a replay's framing)", () => {
  it("refuses a last character with stray bits, though the bytes and their check are the same", () => {
    const body = bodyWithStrayBits((v) => encodeReplayPayload(v, DICTIONARY));
    expect(replayPayloadBytes(body).length).toBeGreaterThan(0);
    const changed = strayBit(body);
    expect(() => replayPayloadBytes(changed)).toThrow(LinkError);
    expect(() => replayPayloadBytes(changed)).toThrow(/altered/);
  });
});
