import { describe, expect, it } from "vitest";
import { LinkError } from "./linkError.ts";
import { openSealedText, sealText } from "./sealedText.ts";

const TEXT = "h64.r4.n200.lr0.3.k25.s1.pnls.f1@60+30";
const URL_SAFE = "abcdefghijklmnopqrstuvwxyz0123456789.@+~-_";

describe("sealed link text", () => {
  it("round-trips and stays readable", () => {
    const sealed = sealText(TEXT);
    expect(sealed.startsWith(`${TEXT}~`)).toBe(true);
    expect(openSealedText(sealed, "training settings (t=)")).toBe(TEXT);
  });

  it("refuses every one-character change and every cut, naming the key", () => {
    const sealed = sealText(TEXT);
    let refused = 0;
    let tried = 0;
    for (let i = 0; i < sealed.length; i++) {
      for (const c of URL_SAFE) {
        if (c === sealed[i]) continue;
        tried++;
        const bad = sealed.slice(0, i) + c + sealed.slice(i + 1);
        try {
          openSealedText(bad, "training settings (t=)");
        } catch (e) {
          expect(e).toBeInstanceOf(LinkError);
          expect((e as Error).message).toContain("training settings (t=)");
          refused++;
        }
      }
    }
    for (let n = 0; n < sealed.length; n++) {
      tried++;
      expect(() => openSealedText(sealed.slice(0, n), "t=")).toThrow(LinkError);
      refused++;
    }
    expect(refused).toBe(tried);
  });

  it("refuses a value without its check", () => {
    expect(() => openSealedText(TEXT, "training settings (t=)")).toThrow(/lack their integrity check/);
  });
});
