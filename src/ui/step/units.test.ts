import { describe, expect, it } from "vitest";
import { memoryText, shareText } from "./units.ts";

describe("memoryText", () => {
  it("shows a small model's memory in a unit that shows it, not 0 GB", () => {
    expect(memoryText(4_194_304)).toBe("4.19 MB");
    expect(memoryText(12_000)).toBe("12 kB");
    expect(memoryText(512)).toBe("512 bytes");
    expect(memoryText(80e9)).toBe("80 GB");
    expect(memoryText(1_620_000_000_000)).toBe("1,620 GB");
  });
});

describe("shareText", () => {
  it("writes a share of a step of 0 ms as —, not NaN %", () => {
    expect(shareText(0, 0)).toBe("—");
    expect(shareText(12.5, 50)).toBe("25.0%");
    expect(shareText(0, 90)).toBe("0.0%");
  });
});
