import { describe, expect, it } from "vitest";
import { bitRateText, neededText, rateText, syncTimeText } from "./outerSyncText.ts";

describe("the outer-sync panel's words", () => {
  it("write a rate in the unit that shows it, in bytes and in bits", () => {
    expect(rateText(1.25e9)).toBe("1.25 GB/s");
    expect(rateText(8.4e8)).toBe("840 MB/s");
    expect(rateText(3.456e13)).toBe("34.6 TB/s");
    expect(rateText(512)).toBe("512 B/s");
    expect(bitRateText(1.25e9)).toBe("10 Gb/s");
    expect(bitRateText(1e5)).toBe("800 kb/s");
  });

  it("write a sync time in ms below a second", () => {
    expect(syncTimeText(0.13234)).toBe("132 ms");
    expect(syncTimeText(2.4567)).toBe("2.46 s");
    expect(syncTimeText(12345.678)).toBe("12,345.7 s");
    expect(syncTimeText(0)).toBe("0 s");
  });

  it("say '—' where no bandwidth is enough and 'any' where any is", () => {
    expect(neededText(null)).toBe("—");
    expect(neededText(0)).toBe("any");
    expect(neededText(2e10)).toBe("20 GB/s");
  });
});
