import { describe, expect, it } from "vitest";
import { DEFAULT_TORNADO_SETTINGS } from "../sim/sweep/tornado.ts";
import { LinkError } from "./linkError.ts";
import { sealText } from "./sealedText.ts";
import { decodeTornadoParam, tornadoParam } from "./tornadoLink.ts";

describe("tn=", () => {
  it("writes nothing for the defaults not run, and reads back what it wrote", () => {
    expect(tornadoParam({ ...DEFAULT_TORNADO_SETTINGS, run: false })).toBe("");
    expect(decodeTornadoParam(undefined)).toEqual({ ...DEFAULT_TORNADO_SETTINGS, run: false });
    for (const s of [
      { amount: 0.5, precision: 0.01, maxSeeds: 400, run: true },
      { amount: 0.25, precision: 0.005, maxSeeds: 1000, run: false },
      { amount: 0.99, precision: 0.1, maxSeeds: 20, run: true },
    ])
      expect(decodeTornadoParam(tornadoParam(s))).toEqual(s);
    expect(tornadoParam({ amount: 0.5, precision: 0.01, maxSeeds: 400, run: true })).toMatch(
      /^50,1,400,run~/,
    );
  });

  it("refuses a changed, out-of-range or malformed value by name", () => {
    const ok = tornadoParam({ amount: 0.5, precision: 0.01, maxSeeds: 400, run: true });
    expect(() => decodeTornadoParam(ok.replace("50,", "60,"))).toThrow(/integrity check/);
    expect(() => decodeTornadoParam(sealText("150,1,400"))).toThrow(
      /amount \(%\) must be a number in \[1, 99\]/,
    );
    expect(() => decodeTornadoParam(sealText("50,0,400"))).toThrow(/precision \(points\)/);
    expect(() => decodeTornadoParam(sealText("50,1,9999999"))).toThrow(
      /seed cap must be an integer in \[20, 5000\]/,
    );
    expect(() => decodeTornadoParam(sealText("50,1,400,go"))).toThrow(LinkError);
    expect(() => decodeTornadoParam("x".repeat(100))).toThrow(/longer than/);
  });
});
