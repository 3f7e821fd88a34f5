import { describe, expect, it } from "vitest";
import { decodeLabResults, encodeLabResults, type LinkedRow, MAX_LINKED_ROWS } from "./labResultsLink.ts";

const row: LinkedRow = {
  mode: "separate",
  algorithm: "halving-doubling",
  devices: 8,
  bytesPerDevice: 262144,
  seconds: 0.0031415926,
  algbw: 0.6677,
  busbw: 1.1685,
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
    const many = Array.from({ length: MAX_LINKED_ROWS + 5 }, (_, i) => ({ ...row, seconds: i / 7 }));
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
});
