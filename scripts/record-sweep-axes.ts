/**
 * Records the points of every sweep axis an old link could name (gpus, mtbf, replicas
 * and the eight recovery knobs), from every preset and the default scenario, with and without a
 * range: src/sim/compat/sweep-axes-recorded.json. Run once, before the axes came from the field
 * table; never regenerated (sweepAxesCompat.test.ts checks that an old sw= link sweeps the same
 * scenarios, bit for bit). Its whole-scenario digests were since turned into digests of each
 * point's difference from the defaults by scripts/rehash-sweep-axes.ts.
 */
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { PRESETS } from "../src/sim/presets.ts";
import { DEFAULT_SCENARIO, parseScenario, type Scenario } from "../src/sim/scenario/index.ts";
import { buildSweep, SWEEP_AXES, type SweepAxisId, type SweepRange } from "../src/sim/sweep/index.ts";

export function digest(s: Scenario): string {
  return createHash("sha256").update(JSON.stringify(s)).digest("hex").slice(0, 16);
}

// A sweep that threw (a point past the engine's bound) recorded as null: no link could show it.
function record(base: Scenario, axis: SweepAxisId, n: number, range: SweepRange | null) {
  try {
    // Each point's x and a digest of its whole scenario (the scenarios themselves are 13 MB).
    return buildSweep(base, axis, n, range).map((p) => [p.x, digest(p.scenario)]);
  } catch {
    return null;
  }
}

const bases = [DEFAULT_SCENARIO, ...PRESETS.map((p) => parseScenario(p.scenario))];
const cases: unknown[] = [];
for (const [b, base] of bases.entries())
  for (const axis of SWEEP_AXES)
    for (const n of [2, 7, 20])
      for (const range of [null, { from: 1, to: 300 }, { from: 0, to: 50 }])
        cases.push({ base: b, axis: axis.id, points: n, range, sweep: record(base, axis.id, n, range) });
writeFileSync(
  "src/sim/compat/sweep-axes-recorded.json",
  JSON.stringify({ note: "buildSweep of round 5's axes; see scripts/record-sweep-axes.ts", cases }),
);
console.log(cases.length, "cases");
