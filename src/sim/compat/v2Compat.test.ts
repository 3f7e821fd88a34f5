/**
 * Old links never change meaning, version 2 too. v2-recorded.json holds what the two-policy
 * engine (commit 68538f6, before version 3) produced for the default scenario, every preset of
 * the time, the every-v2-part scenario and 60 generated version-2 scenarios, each reached through
 * its share link (scripts/record-v2-compat.ts, run once). Every recorded number must come back bit
 * for bit: the run's metrics, the timelines (by fingerprint), the closed forms' plain numbers and
 * the Monte Carlo summary. Fields added later are ignored; fields that were there may not move.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { decodeScenarioLink } from "../../link/scenarioLink.ts";
import { runScenario } from "../engine.ts";
import { monteCarlo } from "../monteCarlo/monteCarlo.ts";
import { traceDigest } from "./traceDigest.ts";

interface RecordedCase {
  label: string;
  link: string;
  version: number;
  run: { synchronous: Record<string, unknown>; ftHsdp: Record<string, unknown>; closedForm: unknown };
  trace: Record<string, number>;
  monteCarlo: { seeds: number; synchronous: Record<string, unknown>; ftHsdp: Record<string, unknown> };
}

const recorded = JSON.parse(readFileSync(new URL("./v2-recorded.json", import.meta.url), "utf8")) as {
  cases: RecordedCase[];
};

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v) && !ArrayBuffer.isView(v);

/** The recorded keys of `expected`, read from `actual` at every depth (typed arrays as plain arrays). */
function recordedKeys(actual: unknown, expected: unknown): unknown {
  if (Array.isArray(expected) && Array.isArray(actual))
    return expected.map((e, i) => recordedKeys(actual[i], e));
  if (!isPlainObject(expected))
    return ArrayBuffer.isView(actual) ? Array.from(actual as Float64Array) : actual;
  const a = (isPlainObject(actual) ? actual : {}) as Record<string, unknown>;
  return Object.fromEntries(Object.keys(expected).map((k) => [k, recordedKeys(a[k], expected[k])]));
}

/**
 * The closed forms' plain numbers (version 1's fixed-arrival, e^(−λD) and Meta figures), path by
 * path; a recorded null was a NaN or an Infinity. The §3 forms with a note ({value, note}) are not
 * pinned: docs/model.md §3 corrected them, so they move on purpose; they are formulas
 * of the scenario, not what a link's run gave.
 */
function closedFormNumbers(actual: unknown, expected: unknown, path = "closedForm"): Record<string, unknown> {
  if (typeof expected === "number") return { [path]: actual };
  if (expected === null || typeof expected !== "object" || "note" in expected) return {};
  const a = (actual ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(expected))
    Object.assign(out, closedFormNumbers(a[k], v, `${path}.${k}`));
  return out;
}

/** JSON turned Infinity into null when recording: read the actual value the same way. */
const asRecorded = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

describe("version-2 links, presets and scenarios give the numbers they gave before (bit for bit)", () => {
  it("holds the default, every preset, the every-v2-part scenario and 60 generated ones", () => {
    expect(recorded.cases.length).toBeGreaterThanOrEqual(75);
    expect(recorded.cases.filter((c) => c.version === 2).length).toBeGreaterThanOrEqual(60);
  });

  for (const c of recorded.cases) {
    it(c.label, () => {
      const s = decodeScenarioLink(c.link) ?? decodeScenarioLink("#s=1.q64FAA");
      if (!s) throw new Error(`link ${c.link} decoded to nothing`);
      expect(s.version).toBe(c.version);
      const run = runScenario(s, { record: true });
      expect(asRecorded(recordedKeys(run.synchronous, c.run.synchronous))).toEqual(c.run.synchronous);
      expect(asRecorded(recordedKeys(run.ftHsdp, c.run.ftHsdp))).toEqual(c.run.ftHsdp);
      expect(closedFormNumbers(run.closedForm, c.run.closedForm)).toEqual(
        closedFormNumbers(c.run.closedForm, c.run.closedForm),
      );
      expect(traceDigest(run)).toEqual(c.trace);
      const mc = monteCarlo(s, c.monteCarlo.seeds);
      expect(asRecorded(recordedKeys(mc.synchronous, c.monteCarlo.synchronous))).toEqual(
        c.monteCarlo.synchronous,
      );
      expect(asRecorded(recordedKeys(mc.ftHsdp, c.monteCarlo.ftHsdp))).toEqual(c.monteCarlo.ftHsdp);
    });
  }
});
