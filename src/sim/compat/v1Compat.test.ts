/**
 * Old links never change meaning. v1-recorded.json holds what the version-1 engine produced for
 * the default scenario, every preset of the time and 40 generated scenarios, each reached through
 * its share link as it was written then (scripts/record-v1-compat.ts, run once on commit 9578a9c).
 * Every recorded number must come back bit for bit: the same link, the same run, the same
 * timelines (by fingerprint) and the same Monte Carlo summary. Fields added later are ignored;
 * fields that were there may not move.
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
  scenario: Record<string, unknown>;
  run: { synchronous: Record<string, unknown>; ftHsdp: Record<string, unknown>; closedForm: unknown };
  trace: Record<string, number>;
  monteCarlo: { seeds: number; synchronous: Record<string, unknown>; ftHsdp: Record<string, unknown> };
}

const recorded = JSON.parse(readFileSync(new URL("./v1-recorded.json", import.meta.url), "utf8")) as {
  cases: RecordedCase[];
};

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v) && !ArrayBuffer.isView(v);

/**
 * The recorded keys of `expected`, read from `actual` (typed arrays as plain arrays), at every
 * depth: a scenario group that gained fields (version 2's `cluster.hostsPerRack`...) is compared
 * on the fields it had.
 */
function sameKeys(actual: object, expected: Record<string, unknown>): Record<string, unknown> {
  const a = actual as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(expected).map((k) => {
      const v = a[k];
      const e = expected[k];
      if (isPlainObject(v) && isPlainObject(e)) return [k, sameKeys(v, e)];
      return [k, ArrayBuffer.isView(v) ? Array.from(v as Float64Array) : v];
    }),
  );
}

/**
 * The closed forms' recorded numbers, path by path. A recorded null stands for a NaN that v1
 * showed where a form does not apply (no failures at all): a later version may say so in words,
 * so only the recorded finite numbers are pinned.
 */
function closedFormNumbers(actual: unknown, expected: unknown, path = "closedForm"): Record<string, unknown> {
  if (typeof expected === "number") return { [path]: actual };
  if (expected === null || typeof expected !== "object") return {};
  const a = (actual ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(expected))
    Object.assign(out, closedFormNumbers(a[k], v, `${path}.${k}`));
  return out;
}

describe("version-1 links and scenarios give the numbers they gave before (bit for bit)", () => {
  it("holds the default, every v1 preset and 40 generated scenarios", () => {
    expect(recorded.cases.length).toBeGreaterThanOrEqual(48);
  });

  for (const c of recorded.cases) {
    it(c.label, () => {
      const s = decodeScenarioLink(c.link) ?? decodeScenarioLink("#s=1.q64FAA");
      if (!s) throw new Error(`link ${c.link} decoded to nothing`);
      expect(sameKeys(s, c.scenario)).toEqual(c.scenario);
      const run = runScenario(s, { record: true });
      expect(sameKeys(run.synchronous!, c.run.synchronous!)).toEqual(c.run.synchronous!);
      expect(sameKeys(run.ftHsdp!, c.run.ftHsdp!)).toEqual(c.run.ftHsdp!);
      expect(closedFormNumbers(run.closedForm, c.run.closedForm)).toEqual(
        closedFormNumbers(c.run.closedForm, c.run.closedForm),
      );
      expect(traceDigest(run)).toEqual(c.trace);
      const mc = monteCarlo(s, c.monteCarlo.seeds);
      expect(sameKeys(mc.synchronous!, c.monteCarlo.synchronous)).toEqual(c.monteCarlo.synchronous);
      expect(sameKeys(mc.ftHsdp!, c.monteCarlo.ftHsdp)).toEqual(c.monteCarlo.ftHsdp);
    });
  }
});
