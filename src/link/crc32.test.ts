import { strToU8 } from "fflate";
import { describe, expect, it } from "vitest";
import { crc32 } from "./crc32.ts";

describe("CRC-32", () => {
  it("gives the published check values", () => {
    // The CRC catalogue's check value for CRC-32/ISO-HDLC, and the values zlib's crc32 gives.
    expect(crc32(strToU8("123456789"))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
    expect(crc32(strToU8("a"))).toBe(0xe8b7be43);
    expect(crc32(strToU8("abc"))).toBe(0x352441c2);
    expect(crc32(strToU8("The quick brown fox jumps over the lazy dog"))).toBe(0x414fa339);
    expect(crc32(new Uint8Array(32))).toBe(0x190a55ad);
    expect(crc32(new Uint8Array(32).fill(0xff))).toBe(0xff6cab0b);
  });
});
