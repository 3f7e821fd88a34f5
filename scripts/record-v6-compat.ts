/**
 * Records what DiLoCo links (scenario version 6) produced when DiLoCo first shipped, before any
 * change to its loop: src/sim/compat/v6-recorded.json, compared bit for bit by v6Compat.test.ts.
 *
 * It was run once, with the engine of commit 10aa0fa (the first release with DiLoCo, stop 41).
 * Do not re-run it to make that test pass: a re-run after the engine changed would record the
 * new numbers.
 *
 *   npx tsx scripts/record-v6-compat.ts > src/sim/compat/v6-recorded.json
 */
import fc from "fast-check";
import { encodeScenarioHash } from "../src/link/scenarioLink.ts";
import { runScenario } from "../src/sim/engine.ts";
import { monteCarlo } from "../src/sim/monteCarlo/monteCarlo.ts";
import { DILOCO_PRESETS, presetById } from "../src/sim/presets.ts";
import { parseScenario, type Scenario } from "../src/sim/scenario/index.ts";
import { bitDigest } from "../src/testing/bitDigest.ts";
import { dilocoScenario } from "../src/testing/scenario.arbitrary.ts";

const MC_SEEDS = 8;

function record(label: string, s: Scenario) {
  const plain = runScenario(s);
  const recorded = runScenario(s, { record: true });
  return {
    label,
    link: encodeScenarioHash(s),
    version: s.version,
    // Digests of DiLoCo's metrics (unrecorded and recorded runs), its recording and its Monte
    // Carlo summary; the ETTR in plain too, so that a failure says by how much it moved.
    ettr: plain.diloco?.ettr ?? null,
    metrics: bitDigest(plain.diloco),
    recordedMetrics: bitDigest(recorded.diloco),
    recording: bitDigest(recorded.trace?.recordings.diloco),
    monteCarlo: bitDigest(monteCarlo(s, MC_SEEDS).diloco),
  };
}

const slow = presetById("slow-greyhound")?.scenario.slow;
const fixed: [string, unknown][] = [
  ["default + diloco", { policies: ["synchronous", "ftHsdp", "diloco"] }],
  ...DILOCO_PRESETS.map((p): [string, unknown] => [`preset:${p.id}`, p.scenario]),
  [
    "streaming",
    {
      policies: ["ftHsdp", "diloco"],
      diloco: { syncEvery: 50, syncSeconds: 120, overlapSteps: 20, stepEquivalence: 0.9 },
    },
  ],
  ["every step", { policies: ["diloco"], diloco: { syncEvery: 1, syncSeconds: 3 }, training: { days: 3 } }],
  [
    "sync longer than a round",
    { policies: ["ftHsdp", "diloco"], diloco: { syncEvery: 5, syncSeconds: 400, overlapSteps: 4 } },
  ],
  [
    "slow hosts, streaming",
    {
      policies: ["ftHsdp", "diloco"],
      slow: { ...slow, perHostDay: 0.05 },
      diloco: { syncEvery: 40, syncSeconds: 200, overlapSteps: 15 },
    },
  ],
  [
    "checkpoints, spares, quorum, evictions",
    {
      policies: ["ftHsdp", "diloco"],
      ft: { checkpointMinutes: 30, checkpointWriteSeconds: 20, minReplicas: 10 },
      spares: { pool: "limited", hosts: 2, repairHours: 8 },
      slow: { ...slow, perHostDay: 0.02, evictAfterMinutes: 20 },
      diloco: { syncEvery: 30, syncSeconds: 90, overlapSteps: 10, stepEquivalence: 0.8 },
    },
  ],
];
const cases = [
  ...fixed.map(([label, input]) => record(label, parseScenario(input as never))),
  ...fc.sample(dilocoScenario, { seed: 20261207, numRuns: 40 }).map((s, i) => record(`generated:${i}`, s)),
];
process.stdout.write(`${JSON.stringify({ recordedAt: "10aa0fa", mcSeeds: MC_SEEDS, cases }, null, 1)}\n`);
