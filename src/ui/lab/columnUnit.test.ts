import { describe, expect, it } from "vitest";
import { BANDWIDTH_UNITS, columnUnit, SIZE_UNITS, TIME_UNITS } from "./columnUnit.ts";

describe("one unit per column of the lab's results", () => {
  it("writes 48 MB/s and 1.2 GB/s in one unit, with the same decimals", () => {
    const c = columnUnit([0.0482, 1.2, 20.5], BANDWIDTH_UNITS);
    expect(c.unit).toBe("GB/s");
    expect([0.0482, 1.2, 20.5].map(c.format)).toEqual(["0.048", "1.200", "20.500"]);
  });

  it("goes down a unit when the smallest value would read as 0.00", () => {
    const c = columnUnit([0.00004, 0.002], BANDWIDTH_UNITS);
    expect(c.unit).toBe("MB/s");
    expect(c.format(0.00004)).toBe("0.040");
    expect(c.format(0.002)).toBe("2.000");
  });

  it("times from 45 µs to 1.2 s: milliseconds, the smallest still readable", () => {
    const c = columnUnit([45e-6, 3.2e-3, 1.2], TIME_UNITS);
    expect(c.unit).toBe("ms");
    expect([45e-6, 3.2e-3, 1.2].map(c.format)).toEqual(["0.045", "3.200", "1,200.000"]);
  });

  it("whole sizes have no decimals: 4 KiB to 4 MiB in KiB", () => {
    const c = columnUnit([4096, 65536, 4 * 1024 ** 2], SIZE_UNITS);
    expect(c.unit).toBe("KiB");
    expect([4096, 4 * 1024 ** 2].map(c.format)).toEqual(["4", "4,096"]);
    expect(columnUnit([1024 ** 2, 256 * 1024 ** 2], SIZE_UNITS).unit).toBe("MiB");
  });

  it("every cell of a column carries the same unit and decimals, whatever the values", () => {
    for (const values of [
      [0.001, 900],
      [5, 6, 7.5],
      [1e-7, 1e-5],
    ]) {
      const c = columnUnit(values, BANDWIDTH_UNITS);
      const decimals = values.map((v) => (c.format(v).split(".")[1] ?? "").length);
      expect(new Set(decimals).size).toBe(1);
      for (const v of values) expect(c.format(v)).not.toMatch(/^0(\.0*)?$/);
    }
  });
});

describe("the busbw chart beside the table", () => {
  it("reads in the table's busbw unit: MB/s when the table's column is in MB/s", async () => {
    const { chartBandwidthUnit } = await import("./BusBwChart.tsx");
    const results = [{ busbw: 0.00482 }, { busbw: 0.9 }];
    const table = columnUnit(
      results.map((r) => r.busbw),
      BANDWIDTH_UNITS,
    );
    expect(table.unit).toBe("MB/s");
    expect(chartBandwidthUnit(results)).toEqual({ name: "MB/s", scale: 1e-3 });
    expect(chartBandwidthUnit([{ busbw: 12 }]).name).toBe("GB/s");
  });
});
