import { describe, expect, it } from "vitest";
import { firstInvalidUtf8 } from "./utf8.ts";

const bytes = (...b: number[]) => Uint8Array.from(b);

describe("firstInvalidUtf8", () => {
  it("accepts what TextEncoder writes, emoji and U+10FFFF included", () => {
    expect(firstInvalidUtf8(new TextEncoder().encode("a é € 😀 \u{10ffff}"))).toBe(-1);
  });

  it("names the first byte of each ill-formed sequence the decoder would replace", () => {
    expect(firstInvalidUtf8(bytes(0x61, 0xe9, 0x62))).toBe(1); // Latin-1 é
    expect(firstInvalidUtf8(bytes(0xc0, 0xaf))).toBe(0); // overlong '/'
    expect(firstInvalidUtf8(bytes(0x61, 0xed, 0xa0, 0x80))).toBe(1); // a surrogate
    expect(firstInvalidUtf8(bytes(0xf4, 0x90, 0x80, 0x80))).toBe(0); // past U+10FFFF
    expect(firstInvalidUtf8(bytes(0x61, 0x62, 0xe2, 0x82))).toBe(2); // cut at the end
    // Each agrees with a fatal decoder's verdict.
    for (const b of [bytes(0xe9), bytes(0xc0, 0xaf), bytes(0xed, 0xa0, 0x80), bytes(0xe2, 0x82)])
      expect(() => new TextDecoder("utf-8", { fatal: true }).decode(b)).toThrow();
  });
});
