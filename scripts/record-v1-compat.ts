/**
 * Records what version-1 scenarios and links produced BEFORE cluster model v2 and link
 * format 2 touched the engine or the codec: src/sim/compat/v1-recorded.json.
 *
 * It was run once, on commit 9578a9c (the last commit of the v1 engine), and its output is kept
 * as the reference that `v1Compat.test.ts` compares against bit for bit. Do not re-run it to make
 * that test pass: a re-run after the engine changed would record the new numbers, not the old.
 *
 *   npx tsx scripts/record-v1-compat.ts > src/sim/compat/v1-recorded.json
 */
import fc from "fast-check";
import { encodeScenarioHash } from "../src/link/scenarioLink.ts";
import { traceDigest } from "../src/sim/compat/traceDigest.ts";
import { runScenario } from "../src/sim/engine.ts";
import { monteCarlo } from "../src/sim/monteCarlo/monteCarlo.ts";
import { PRESETS } from "../src/sim/presets.ts";
import { parseScenario, type Scenario } from "../src/sim/scenario/index.ts";
import type { PolicyMetrics } from "../src/sim/types.ts";
import { validScenario } from "../src/testing/scenario.arbitrary.ts";

const MC_SEEDS = 8;

function plainMetrics(m: PolicyMetrics): Record<string, number | number[]> {
  return { ...m, secondsWithKDown: Array.from(m.secondsWithKDown) };
}

function record(label: string, s: Scenario) {
  const run = runScenario(s, { record: true });
  const mc = monteCarlo(s, MC_SEEDS);
  return {
    label,
    link: encodeScenarioHash(s),
    scenario: s,
    run: {
      synchronous: plainMetrics(run.synchronous),
      ftHsdp: plainMetrics(run.ftHsdp),
      closedForm: run.closedForm,
    },
    trace: traceDigest(run),
    monteCarlo: { seeds: MC_SEEDS, synchronous: mc.synchronous, ftHsdp: mc.ftHsdp },
  };
}

const cases = [
  record("default", parseScenario({})),
  ...PRESETS.map((p) => record(`preset:${p.id}`, parseScenario(p.scenario))),
  ...fc.sample(validScenario, { seed: 20261201, numRuns: 40 }).map((s, i) => record(`generated:${i}`, s)),
];
process.stdout.write(`${JSON.stringify({ recordedAt: "9578a9c", mcSeeds: MC_SEEDS, cases }, null, 1)}\n`);
