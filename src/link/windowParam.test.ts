import { describe, expect, it } from "vitest";
import { decodeWindowParam, parseWindowParam, windowParam } from "./windowParam.ts";

describe("time window in the link", () => {
  it("round-trips a window through `w=` in tenths of a second", () => {
    expect(windowParam([12.25, 3600])).toBe("12.3,3600.0");
    expect(parseWindowParam(windowParam([12.3, 3600]))).toEqual([12.3, 3600]);
    expect(windowParam(null)).toBe("");
  });

  it("reads a malformed or empty window as the whole run; as a link's key it is reported", () => {
    for (const bad of [undefined, "", "5", "a,b", "10,5", "3,3", "-1,5", "1,2,3"]) {
      expect(parseWindowParam(bad), String(bad)).toBeNull();
    }
    expect(decodeWindowParam(undefined)).toBeNull();
    expect(() => decodeWindowParam("10,5")).toThrow(/w=10,5.*start < end/);
  });
});
