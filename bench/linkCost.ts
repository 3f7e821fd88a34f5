/**
 * `npm run bench:linkcost`: the seconds a link's sweep takes on one core against the estimate the
 * page asks by (src/state/linkRunCost.ts). Each sweep is the preset's, 20 points × 200 seeds as a
 * link carries them by default; each point's runs are timed the way a sweep's worker runs them
 * (runChunk), SAMPLE seeds per point, scaled to 200. The estimate should be at least the time
 * measured (ratio ≥ 1): a link that under-estimates starts a long sweep without asking; DiLoCo's
 * sweeps show its rounds, the part of the estimate SECONDS_PER_ROUND prices.
 */
import { loadavg } from "node:os";
import { runChunk } from "../src/sim/monteCarlo/monteCarlo.ts";
import { presetById } from "../src/sim/presets.ts";
import { DEFAULT_SCENARIO, parseScenario } from "../src/sim/scenario/index.ts";
import { buildSweep, type SweepAxisId } from "../src/sim/sweep/index.ts";
import { addCosts, NO_COST, runsCost } from "../src/state/linkRunCost.ts";

const SEEDS = 200;
const SAMPLE = Number(process.env.SAMPLE ?? 10);
const CASES: [string, SweepAxisId][] = [
  ["default", "gpus"],
  ["default", "mtbf"],
  ["slow-greyhound", "slow.evictAfterMinutes" as SweepAxisId],
  ["slow-evict-when", "slow.evictAfterMinutes" as SweepAxisId],
  ["four-strategies", "gpus"],
  ["llama3-405b-causes", "gpus"],
  ["racks-striped", "gpus"],
  ["spares-dry", "gpus"],
  ["diloco-failures-minutes", "diloco.syncEvery" as SweepAxisId],
  ["diloco-failures-minutes", "gpus"],
  ["diloco-four-sites", "diloco.syncEvery" as SweepAxisId],
  ["diloco-four-sites", "diloco.overlapSteps" as SweepAxisId],
];

for (let i = 0; i < 300; i++) runChunk(DEFAULT_SCENARIO, { start: i, count: 1 });
console.log(
  `load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")}; ${SAMPLE} seeds a point, scaled to ${SEEDS}`,
);
console.log("sweep".padEnd(44), "estimate s".padStart(10), "measured s".padStart(11), "ratio".padStart(6));
for (const [id, axis] of CASES) {
  const preset = presetById(id);
  const s = preset ? parseScenario(preset.scenario) : DEFAULT_SCENARIO;
  let cost = NO_COST;
  let ms = 0;
  for (const p of buildSweep(s, axis, 20, null)) {
    cost = addCosts(cost, runsCost(p.scenario, SEEDS));
    const t0 = performance.now();
    runChunk(p.scenario, { start: 0, count: SAMPLE });
    ms += ((performance.now() - t0) / SAMPLE) * SEEDS;
  }
  const measured = ms / 1000;
  console.log(
    `${id} × ${axis}`.padEnd(44),
    cost.seconds.toFixed(1).padStart(10),
    measured.toFixed(1).padStart(11),
    (cost.seconds / measured).toFixed(2).padStart(6),
  );
}
