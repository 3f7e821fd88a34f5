/**
 * Rewrites src/sim/compat/sweep-axes-recorded.json's digests from the whole completed scenario of
 * each point to its difference from the defaults (compat/scenarioDiff.ts), from the code: every
 * recorded sweep is built again, its whole-scenario digests must equal the recorded ones (so the
 * code still sweeps as the old axes did, and the new digests stand for the same scenarios), then
 * each point's difference is digested. Run once (`npx tsx scripts/rehash-sweep-axes.ts`), at the
 * commit that made the change; the x values and the cases are kept as recorded.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { differenceFrom } from "../src/sim/compat/scenarioDiff.ts";
import { PRESETS } from "../src/sim/presets.ts";
import { DEFAULT_SCENARIO, parseScenario, type Scenario } from "../src/sim/scenario/index.ts";
import { buildSweep, type SweepAxisId, type SweepRange } from "../src/sim/sweep/index.ts";

const FILE = "src/sim/compat/sweep-axes-recorded.json";
const hash = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 16);
const whole = (s: Scenario) => hash(JSON.stringify(s));
const change = (s: Scenario) => hash(JSON.stringify(differenceFrom(DEFAULT_SCENARIO, s)));

interface Case {
  base: number;
  axis: SweepAxisId;
  points: number;
  range: SweepRange | null;
  sweep: [number, string][] | null;
}
const recorded = JSON.parse(readFileSync(FILE, "utf8")) as { note: string; cases: Case[] };
const bases = [DEFAULT_SCENARIO, ...PRESETS.map((p) => parseScenario(p.scenario))];
for (const c of recorded.cases) {
  if (c.sweep === null) continue;
  const points = buildSweep(bases[c.base] as Scenario, c.axis, c.points, c.range);
  const was = JSON.stringify(c.sweep);
  if (JSON.stringify(points.map((p) => [p.x, whole(p.scenario)])) !== was)
    throw new Error(`${c.axis} ${c.points} from base ${c.base}: not the recorded scenarios; nothing written`);
  c.sweep = points.map((p) => [p.x, change(p.scenario)]);
}
recorded.note =
  "buildSweep of round 5's axes (scripts/record-sweep-axes.ts); each point's digest is of its difference from the defaults (scripts/rehash-sweep-axes.ts)";
writeFileSync(FILE, JSON.stringify(recorded));
console.log(recorded.cases.length, "cases rehashed");
