import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromBase64Url, toBase64Url } from "./base64url.ts";

describe("base64url", () => {
  it("round-trips any bytes and matches the standard encoding", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const text = toBase64Url(bytes);
        expect(text).toBe(Buffer.from(bytes).toString("base64url"));
        expect(fromBase64Url(text, true)).toEqual(bytes);
      }),
    );
  });

  it("refuses what base64url cannot be, and in strict mode a last character with stray bits", () => {
    expect(() => fromBase64Url("ab+c")).toThrow(/characters/);
    expect(() => fromBase64Url("abcde")).toThrow(/length/);
    expect(toBase64Url(Uint8Array.of(0xff))).toBe("_w");
    expect(fromBase64Url("_x")).toEqual(Uint8Array.of(0xff));
    expect(() => fromBase64Url("_x", true)).toThrow(/altered/);
  });
});
