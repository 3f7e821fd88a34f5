/**
 * Old `sw=` links sweep the same scenarios: every old axis (cluster size, MTBF, replicas,
 * the eight recovery knobs), from the default and every preset, 2, 7 and 20 points, without and
 * with a range, gives the x values and scenarios recorded before the axes came from the field
 * table (scripts/record-sweep-axes.ts). Each point is pinned by a digest of what it changes from
 * the defaults (scenarioDiff.ts), so a new field with a default breaks nothing, while an axis that
 * moves a field differently, or moves another one, fails (scripts/rehash-sweep-axes.ts turned the
 * whole-scenario digests into these, from the code, after checking it still gave the recorded ones).
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PRESETS } from "../presets.ts";
import { DEFAULT_SCENARIO, parseScenario, type Scenario } from "../scenario/index.ts";
import { buildSweep, type SweepAxisId, type SweepRange } from "../sweep/index.ts";
import { differenceFrom } from "./scenarioDiff.ts";

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

const digestOf = (base: Scenario, s: Scenario) =>
  createHash("sha256")
    .update(JSON.stringify(differenceFrom(base, s)))
    .digest("hex")
    .slice(0, 16);
const digest = (s: Scenario) => digestOf(DEFAULT_SCENARIO, s);
const bases = [DEFAULT_SCENARIO, ...PRESETS.map((p) => parseScenario(p.scenario))];

describe("the old sweep axes", () => {
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

  it("pins what a point changes, not the fields it leaves at their defaults", () => {
    const point = buildSweep(DEFAULT_SCENARIO, "replicas", 2, null)[1]?.scenario as Scenario;
    // A field added later with its default, on both sides: the same digest.
    const later = (s: Scenario) => ({ ...s, later: { knob: 1 } }) as Scenario;
    expect(digestOf(later(DEFAULT_SCENARIO), later(point))).toBe(digest(point));
    // The axis moving its own field differently, or another field too: a different digest.
    const moved = { ...point, cluster: { ...point.cluster, replicas: point.cluster.replicas + 1 } };
    expect(digest(moved)).not.toBe(digest(point));
    const alsoMoves = { ...point, training: { ...point.training, days: point.training.days + 1 } };
    expect(digest(alsoMoves)).not.toBe(digest(point));
    expect(differenceFrom(DEFAULT_SCENARIO, point).map(([path]) => path)).toContain("cluster.replicas");
  });
});
