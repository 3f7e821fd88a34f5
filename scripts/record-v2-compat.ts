/**
 * Records what version-2 scenarios and links produced BEFORE version 3 (policies as
 * plug-ins, in-memory checkpoints, hot spares, FT-HSDP's own costs) touched the engine:
 * src/sim/compat/v2-recorded.json, compared bit for bit by v2Compat.test.ts.
 *
 * It was run once, on commit 68538f6 (the last commit of the two-policy engine). Do not re-run
 * it to make that test pass: a re-run after the engine changed would record the new numbers.
 *
 *   npx tsx scripts/record-v2-compat.ts > src/sim/compat/v2-recorded.json
 */
import fc from "fast-check";
import { encodeScenarioHash } from "../src/link/scenarioLink.ts";
import { traceDigest } from "../src/sim/compat/traceDigest.ts";
import { runScenario } from "../src/sim/engine.ts";
import { monteCarlo } from "../src/sim/monteCarlo/monteCarlo.ts";
import { PRESETS } from "../src/sim/presets.ts";
import { parseScenario, type Scenario } from "../src/sim/scenario/index.ts";
import type { PolicyMetrics } from "../src/sim/types.ts";
import { everyV2Part } from "../src/testing/everyV2Part.ts";
import { v2Scenario } from "../src/testing/scenario.arbitrary.ts";

const MC_SEEDS = 8;

function plainMetrics(m: PolicyMetrics): Record<string, unknown> {
  return {
    ...m,
    secondsWithKDown: Array.from(m.secondsWithKDown),
    causeCount: Array.from(m.causeCount),
    causeStallSeconds: Array.from(m.causeStallSeconds),
  };
}

function record(label: string, s: Scenario) {
  const run = runScenario(s, { record: true });
  const mc = monteCarlo(s, MC_SEEDS);
  return {
    label,
    link: encodeScenarioHash(s),
    version: s.version,
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
  record(
    "everyV2Part",
    parseScenario(everyV2Part({ gpus: 4096, replicas: 16, perHostDay: 0.05, days: 3, spareHosts: 4 })),
  ),
  ...fc.sample(v2Scenario, { seed: 20261201, numRuns: 60 }).map((s, i) => record(`generated:${i}`, s)),
];
process.stdout.write(`${JSON.stringify({ recordedAt: "68538f6", mcSeeds: MC_SEEDS, cases }, null, 1)}\n`);
