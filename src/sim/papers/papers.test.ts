import { describe, expect, it } from "vitest";
import { parseScenario } from "../scenario/index.ts";
import { CLAIMS } from "./claims.ts";
import type { Claim } from "./claimTypes.ts";
import { RECORDED, recordedRows } from "./recorded.ts";
import { claimRow, claimRows } from "./rows.ts";
import { verdictOf } from "./verdict.ts";
import { verdictNote, verdictText } from "./words.ts";

describe("published claims", () => {
  it("every row recomputed from its scenario gives the recorded value and verdict, to the bit", () => {
    const fresh = claimRows();
    expect(fresh.map((r) => r.claim.id)).toEqual(Object.keys(RECORDED));
    const shown = recordedRows();
    for (let i = 0; i < fresh.length; i++) {
      expect(fresh[i]!.model, fresh[i]!.claim.id).toEqual(shown[i]!.model);
      expect(fresh[i]!.verdict, fresh[i]!.claim.id).toEqual(shown[i]!.verdict);
    }
  }, 60_000);

  it("has unique ids, valid scenarios and published intervals that are intervals", () => {
    expect(new Set(CLAIMS.map((c) => c.id)).size).toBe(CLAIMS.length);
    for (const c of CLAIMS) {
      expect(() => parseScenario(c.scenario), c.id).not.toThrow();
      expect(c.published.low, c.id).toBeLessThanOrEqual(c.published.high);
      expect(c.runs, c.id).toBeGreaterThanOrEqual(100);
    }
  });

  it("a drifted scenario changes the row: the recorded values catch it", () => {
    const c = CLAIMS.find((x) => x.id === "kokolis-16k")!;
    const drifted: Claim = { ...c, scenario: { ...c.scenario, failures: { perHostDay: 0.007 } } };
    expect(claimRow(drifted).model.mean).not.toBe(RECORDED[c.id]!.mean);
  });
});

describe("verdictOf", () => {
  const published = { low: 43.5, high: 44.5, text: "44 %" };
  it("is within when the model's interval meets the published one, even by its edge only", () => {
    expect(verdictOf(published, { mean: 44, half: 0, runs: 1 })).toEqual({ kind: "within" });
    expect(verdictOf(published, { mean: 45, half: 0.5, runs: 100 })).toEqual({ kind: "within" });
    expect(verdictOf(published, { mean: 43, half: 0.5, runs: 100 })).toEqual({ kind: "within" });
  });
  it("is off by the distance of the model's mean from the nearer published bound", () => {
    expect(verdictOf(published, { mean: 57.5, half: 0.1, runs: 100 })).toEqual({
      kind: "off",
      by: 13,
      side: "above",
    });
    expect(verdictOf(published, { mean: 40.5, half: 0.1, runs: 100 })).toEqual({
      kind: "off",
      by: 3,
      side: "below",
    });
  });
});

describe("the rows' words", () => {
  it("say why a row is off, why a calibrated one agrees, and nothing for a plain agreement", () => {
    const rows = recordedRows();
    for (const r of rows) {
      if (r.verdict.kind === "off") {
        expect(verdictText(r), r.claim.id).toMatch(/^off by [\d.]+/);
        expect(verdictNote(r)).toBe(r.claim.whyOff);
      } else if (r.claim.calibrated) {
        expect(verdictText(r)).toBe("within (calibrated)");
        expect(verdictNote(r)).toContain(r.claim.calibrated);
      } else expect(verdictNote(r)).toBe("");
    }
    // The table holds both kinds: the panel teaches by its disagreements.
    expect(rows.some((r) => r.verdict.kind === "off")).toBe(true);
    expect(rows.some((r) => r.verdict.kind === "within" && !r.claim.calibrated)).toBe(true);
  });
});
