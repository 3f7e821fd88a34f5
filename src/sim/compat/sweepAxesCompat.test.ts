/**
 * Old `sw=` links sweep the same scenarios: every axis round 5 had (cluster size, MTBF, replicas,
 * the eight recovery knobs), from the default and every preset, 2, 7 and 20 points, without and
 * with a range, gives the x values and scenarios recorded before the axes came from the field
 * table (scripts/record-sweep-axes.ts; the file is never regenerated).
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PRESETS } from "../presets.ts";
import { DEFAULT_SCENARIO, parseScenario, type Scenario } from "../scenario.ts";
import { buildSweep, type SweepAxisId, type SweepRange } from "../sweep.ts";

interface Case {
  base: number;
  axis: SweepAxisId;
  points: number;
  range: SweepRange | null;
  sweep: [number, string][] | null;
}
const recorded = JSON.parse(readFileSync(new URL("./sweep-axes-recorded.json", import.meta.url), "utf8")) as {
  cases: Case[];
};

/**
 * The digest of what round 5's scenario held: a group that came later (§6's `slow`) is left out
 * while at its defaults, which is the only value a round-5 sweep can give it.
 */
function roundFive(s: Scenario): object {
  const { slow, ...rest } = s;
  return JSON.stringify(slow) === JSON.stringify(DEFAULT_SCENARIO.slow) ? rest : s;
}
const digest = (s: Scenario) =>
  createHash("sha256")
    .update(JSON.stringify(roundFive(s)))
    .digest("hex")
    .slice(0, 16);
const bases = [DEFAULT_SCENARIO, ...PRESETS.map((p) => parseScenario(p.scenario))];

describe("round 5's sweep axes", () => {
  it("recorded every old axis", () => {
    expect(new Set(recorded.cases.map((c) => c.axis)).size).toBe(11);
    expect(recorded.cases.length).toBeGreaterThan(1000);
  });

  it("sweep the same scenarios as recorded, bit for bit", () => {
    let checked = 0;
    for (const c of recorded.cases) {
      // Those that threw then (a point past the engine's bound) could not open; they now drop the point.
      if (c.sweep === null) continue;
      const base = bases[c.base] as Scenario;
      const now = buildSweep(base, c.axis, c.points, c.range).map((p) => [p.x, digest(p.scenario)]);
      expect(now, `${base.name} ${c.axis} ${c.points} ${JSON.stringify(c.range)}`).toEqual(c.sweep);
      checked++;
    }
    expect(checked).toBeGreaterThan(1000);
    // 1,381 sweeps, every point through the validator: seconds on a loaded core.
  }, 60_000);
});
