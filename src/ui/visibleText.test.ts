import { describe, expect, it } from "vitest";
import { visibleText } from "./visibleText.ts";

describe("visibleText", () => {
  it("writes U+202E, BEL and ESC as visible escapes and keeps the rest", () => {
    expect(visibleText("Soft\u202eware\u0007 \u001b[2J · ✓")).toBe("Soft\\u202eware\\u0007 \\u001b[2J · ✓");
  });
});
