import { describe, expect, it } from "vitest";
import { busBwFactor } from "../gpu/collectives.ts";
import { decodeLabResults, encodeLabResults, type LinkedRow, MAX_LINKED_ROWS } from "./labResultsLink.ts";

const row: LinkedRow = {
  mode: "separate",
  algorithm: "halving-doubling",
  devices: 8,
  bytesPerDevice: 262144,
  seconds: 0.0031415926,
  // As the lab computes them (src/gpu/collectives.ts): S / t, and × 2(n−1)/n for all-reduce.
  algbw: 262144 / 0.0031415926 / 1e9,
  busbw: busBwFactor("all-reduce", 8) * (262144 / 0.0031415926 / 1e9),
  efficiency: 0.0123,
  verified: true,
  maxAbsError: 2.384185791015625e-7,
  toleranceAtWorst: 9.5367431640625e-7,
  timer: "gpu-timestamp",
  reps: 7,
  submits: 21,
  trafficBytes: 7340032,
  on: "Software adapter (swiftshader)",
};

describe("the lab's results in a link (lres=)", () => {
  it("round-trips the rows exactly, a NaN error included, and is empty for none", () => {
    const rows = [row, { ...row, verified: false, maxAbsError: Number.NaN, on: "CPU fallback" }];
    expect(decodeLabResults(encodeLabResults(rows))).toEqual(rows);
    expect(encodeLabResults([])).toBe("");
  });

  it("carries the latest rows up to its limit, within the address's length", () => {
    const many = Array.from({ length: MAX_LINKED_ROWS + 5 }, (_, i) => ({ ...row, reps: i + 1 }));
    const text = encodeLabResults(many);
    expect(decodeLabResults(text)).toEqual(many.slice(5));
    expect(text.length).toBeLessThan(6000);
  });

  it("refuses a changed value and a bad field, naming it", () => {
    const text = encodeLabResults([row]);
    expect(() => decodeLabResults(`${text.slice(0, -3)}AAA`)).toThrow(/lab results \(lres=\)/);
    const bad = encodeLabResults([{ ...row, devices: 99 }]);
    expect(() => decodeLabResults(bad)).toThrow(/0\.devices/);
  });

  it("refuses a row the lab cannot have measured, naming the row and the invariant", () => {
    const refused = (r: Partial<LinkedRow>, why: RegExp) =>
      expect(() => decodeLabResults(encodeLabResults([row, { ...row, ...r }]))).toThrow(why);
    refused({ efficiency: 1e12 }, /row 2 cannot be a measurement: efficiency is 1\.00e\+14 %/);
    refused({ devices: 0 }, /row 2 .*devices is 0; the lab runs 2–16 devices/);
    refused({ devices: 1 }, /devices is 1/);
    refused({ maxAbsError: 1 }, /marked verified, but its error 1 is past its tolerance/);
    refused({ maxAbsError: Number.NaN }, /marked verified, but its error NaN/);
    refused({ algbw: 1000 }, /algbw 1000 GB\/s is not bytesPerDevice \/ seconds/);
    refused({ busbw: row.algbw }, /busbw .* is not algbw × the all-reduce factor for 8 devices/);
    // A failed check with any error is a measurement (a ✗): kept.
    expect(decodeLabResults(encodeLabResults([{ ...row, verified: false, maxAbsError: 5 }]))).toHaveLength(1);
  });
});
