/**
 * Old links never change meaning, DiLoCo's too. v6-recorded.json holds what the engine of commit
 * 10aa0fa (DiLoCo's first release) gave for the default scenario with DiLoCo added, both DiLoCo
 * presets, six scenarios that turn §7's own knobs (streaming overlap, one-step rounds, a sync
 * longer than a round, slow hosts, checkpoints, spares, a quorum, evictions) and 40 generated
 * ones, each reached through its share link (scripts/record-v6-compat.ts, run once). DiLoCo's
 * metrics, its recording and its Monte Carlo summary must come back bit for bit (bitDigest).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { decodeScenarioLink } from "../../link/scenarioLink.ts";
import { bitDigest } from "../../testing/bitDigest.ts";
import { runScenario } from "../engine.ts";
import { monteCarlo } from "../monteCarlo/monteCarlo.ts";

interface RecordedCase {
  label: string;
  link: string;
  version: number;
  ettr: number | null;
  metrics: string;
  recordedMetrics: string;
  recording: string;
  monteCarlo: string;
}

const recorded = JSON.parse(readFileSync(new URL("./v6-recorded.json", import.meta.url), "utf8")) as {
  mcSeeds: number;
  cases: RecordedCase[];
};

describe("version-6 (DiLoCo) links give the numbers they gave at their first release (bit for bit)", () => {
  it("holds the fixed scenarios and 40 generated ones, each running DiLoCo", () => {
    expect(recorded.cases.length).toBeGreaterThanOrEqual(48);
    expect(recorded.cases.every((c) => c.version === 6 && c.ettr !== null)).toBe(true);
  });

  for (const c of recorded.cases) {
    it(c.label, () => {
      const s = decodeScenarioLink(c.link);
      if (!s) throw new Error(`link ${c.link} decoded to nothing`);
      expect(s.version).toBe(c.version);
      const plain = runScenario(s);
      expect(plain.diloco?.ettr).toBe(c.ettr);
      expect(bitDigest(plain.diloco)).toBe(c.metrics);
      const rec = runScenario(s, { record: true });
      expect(bitDigest(rec.diloco)).toBe(c.recordedMetrics);
      expect(bitDigest(rec.trace?.recordings.diloco)).toBe(c.recording);
      expect(bitDigest(monteCarlo(s, recorded.mcSeeds).diloco)).toBe(c.monteCarlo);
    });
  }
});
