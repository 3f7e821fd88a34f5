import { describe, expect, it } from "vitest";
import { DEFAULT_STEP_SETTINGS, encodeStepPayload } from "./stepLink.ts";
import { decodeStepLink, looksLikeStepLink } from "./stepShareLink.ts";

describe("a One step share link given to the CLI", () => {
  it("is told from a file path", () => {
    for (const link of ["http://localhost:4173/#v=step", "#st=2.x", "st=2.x", "v=step"])
      expect(looksLikeStepLink(link)).toBe(true);
    for (const path of ["model.json", "./st=2.json", "/tmp/v=step"])
      expect(looksLikeStepLink(path)).toBe(false);
  });

  it("gives its step settings, or the defaults for a One step link without any", () => {
    const st = encodeStepPayload({ capMb: 4 });
    expect(decodeStepLink(`https://x.example/app/#v=step&st=${st}`).config.capMb).toBe(4);
    expect(decodeStepLink(`st=${st}`).config.capMb).toBe(4);
    expect(decodeStepLink("http://localhost:4173/#v=step")).toEqual(DEFAULT_STEP_SETTINGS);
  });

  it("refuses a link to another view without step settings, a key given twice, and a link past the bound", () => {
    expect(() => decodeStepLink("#v=cluster&s=2.abc")).toThrow(
      /no One step settings \(st=\) and is a link to v=cluster/,
    );
    expect(() => decodeStepLink("#s=2.abc")).toThrow(/is a Cluster view link \(s=, no v=\)/);
    expect(() => decodeStepLink("http://localhost:4173/")).toThrow(/names no view/);
    expect(() => decodeStepLink("#v=step&st=2.a&st=2.b")).toThrow(/st= twice/);
    expect(() => decodeStepLink(`#v=step&x=${"a".repeat(80_000)}`)).toThrow(/characters long/);
  });
});
