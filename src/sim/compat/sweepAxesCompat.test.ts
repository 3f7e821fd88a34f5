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
 * The scenario as round 5 wrote it: version 4's fields (SIMULATION.md §5), at their defaults in
 * every old sweep, are left out of the digest, which hashed the whole object; any other change
 * to a point still changes its digest.
 */
function asRecorded(s: Scenario): unknown {
  const d = DEFAULT_SCENARIO;
  const { badHosts, log, ...failures } = s.failures;
  const { repairLaw, repairSigma, ...spares } = s.spares;
  const v4 = { badHosts, log, repairLaw, repairSigma };
  const v4Default = {
    badHosts: d.failures.badHosts,
    log: d.failures.log,
    repairLaw: d.spares.repairLaw,
    repairSigma: d.spares.repairSigma,
  };
  if (JSON.stringify(v4) !== JSON.stringify(v4Default)) return s;
  return { ...s, failures, spares };
}
const digest = (s: Scenario) =>
  createHash("sha256")
    .update(JSON.stringify(asRecorded(s)))
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
