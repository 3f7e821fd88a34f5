/**
 * `npm run bench:cli`: `npm run sim -- <default> --seeds N` on 1 core and on 2 cores (the
 * target: at least 1.8× faster with 2 at N = 1,000), and what bounds that ratio. The command runs
 * as npm's script does (node scripts/sim.mjs: the bundled CLI, built beforehand), without npm's
 * own start-up, pinned with taskset to CPU 0, then to CPUs 0–1, alternating; the CLI sees the
 * cores it is given (os.availableParallelism follows the affinity) and starts that many threads.
 *
 * Beside the command, the parts of its time, each measured:
 *   - the fixed part: the same command with --seeds 1 on one core (Node's start-up, loading the
 *     code, reading and validating the scenario, one run). A second core cannot shorten it: the
 *     runs cannot start before the scenario is known;
 *   - the runs: per run, on one core (one process pinned to CPU 0), and with both cores busy (two
 *     such processes at once, one per CPU), after a warm-up;
 *   - the warm-up: the first 20 runs of a fresh process less 20 steady runs (V8 runs new code in
 *     its interpreter until it has compiled it; every thread pays this once).
 * From them, the best a second core could do: the fixed part, then the runs split perfectly in
 * two at the both-cores-busy speed, with no warm-up paid at all (generous on purpose). When even
 * that bound is under the target, no scheduling can reach it.
 * Prints the figures and the load average, writes bench/cli-results.json.
 */

import { spawn, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { cliBundle } from "../scripts/sim.mjs";
import type { parallelMonteCarlo as ParallelMonteCarlo } from "../src/cli/parallelMonteCarlo.ts";
import { DEFAULT_SCENARIO } from "../src/sim/scenario/index.ts";
import { defaultScenarioFiles, median } from "./common.ts";

const SEEDS = 1000;
/** The second target: at 10,000 seeds, 2 cores at least 1.7× as fast as 1. */
const MORE_SEEDS = 10_000;
const MORE_TARGET = 1.7;
const TARGET = 1.8;
const REPEATS = Number(process.env.BENCH_REPEATS ?? 5);
const root = join(import.meta.dirname, "..");
const { partialFile: scenarioFile, completedFile } = defaultScenarioFiles("bench-cli-");

const BUNDLED = ["scripts/sim.mjs"];
const TSX = ["--import", "tsx", "src/cli/sim.ts"];

function command(cpus: string, entry: string[], seeds = SEEDS): number {
  const t0 = performance.now();
  const r = spawnSync(
    "taskset",
    ["-c", cpus, process.execPath, ...entry, scenarioFile, "--seeds", String(seeds), "--json"],
    { cwd: root, encoding: "utf8" },
  );
  if (r.status !== 0) throw new Error(`sim failed: ${r.stderr}`);
  return performance.now() - t0;
}

const bundleDir = await cliBundle();
const parallelUrl = pathToFileURL(join(bundleDir, "parallelMonteCarlo.mjs")).href;
const { parallelMonteCarlo } = (await import(parallelUrl)) as {
  parallelMonteCarlo: typeof ParallelMonteCarlo;
};

/**
 * A fresh process pinned to `cpu` that times, in one thread: its first 20 runs (cold), 200 runs
 * to settle, then 400 steady runs; prints {cold, steadyPerRun} as JSON.
 */
const PROBE = `
import { readFileSync } from "node:fs";
const { parallelMonteCarlo } = await import(${JSON.stringify(parallelUrl)});
const s = JSON.parse(readFileSync(${JSON.stringify(completedFile)}, "utf8"));
const time = async (n) => { const t = performance.now(); await parallelMonteCarlo(s, n, { workers: 0 }); return performance.now() - t; };
const cold = await time(20);
await time(200);
const steady = await time(400);
console.log(JSON.stringify({ cold, steadyPerRun: steady / 400 }));
`;
interface Probe {
  cold: number;
  steadyPerRun: number;
}
function probe(cpu: number): Promise<Probe> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      "taskset",
      ["-c", String(cpu), process.execPath, "--input-type=module", "-e", PROBE],
      {
        cwd: root,
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
    });
    child.on("exit", (code) =>
      code === 0 ? resolve(JSON.parse(out) as Probe) : reject(new Error(`probe exited ${code}`)),
    );
  });
}

const loadBefore = loadavg();
const one: number[] = [];
const two: number[] = [];
const tsxOne: number[] = [];
const tsxTwo: number[] = [];
const fixed: number[] = [];
const moreOne: number[] = [];
const moreTwo: number[] = [];
command("0,1", BUNDLED); // the bundle is built (when a source changed)
command("0,1", TSX); // tsx's transform cache is warm
for (let i = 0; i < REPEATS; i++) {
  one.push(command("0", BUNDLED));
  two.push(command("0,1", BUNDLED));
  fixed.push(command("0", BUNDLED, 1));
  tsxOne.push(command("0", TSX));
  tsxTwo.push(command("0,1", TSX));
}
for (let i = 0; i < Math.min(3, REPEATS); i++) {
  moreOne.push(command("0", BUNDLED, MORE_SEEDS));
  moreTwo.push(command("0,1", BUNDLED, MORE_SEEDS));
}
const alone: Probe[] = [];
const together: Probe[] = [];
for (let i = 0; i < 3; i++) {
  alone.push(await probe(0));
  together.push(...(await Promise.all([probe(0), probe(1)])));
}
const inProcess = async (workers: number) => {
  const times: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const t0 = performance.now();
    await parallelMonteCarlo(DEFAULT_SCENARIO, SEEDS, { workers });
    times.push(performance.now() - t0);
  }
  return times;
};
const mc1 = await inProcess(0);
const mc2 = await inProcess(1);
const loadAfter = loadavg();

const perRunOneCore = median(alone.map((p) => p.steadyPerRun));
const perRunBothBusy = median(together.map((p) => p.steadyPerRun));
const warmUp = median(alone.map((p) => p.cold - 20 * p.steadyPerRun));
const fixedMs = median(fixed);
const bestTwoCores = fixedMs + (SEEDS * perRunBothBusy) / 2;

const rows = {
  command: `node scripts/sim.mjs <default> --seeds ${SEEDS} --json`,
  oneCoreMs: median(one),
  twoCoresMs: median(two),
  commandSpeedup: median(one) / median(two),
  target: TARGET,
  parts: {
    fixedMs,
    perRunOneCoreMs: perRunOneCore,
    perRunBothCoresBusyMs: perRunBothBusy,
    coreScaling: (2 * perRunOneCore) / perRunBothBusy,
    warmUpPerThreadMs: warmUp,
    bestTwoCoresMs: bestTwoCores,
    bestSpeedup: median(one) / bestTwoCores,
  },
  moreSeeds: {
    command: `node scripts/sim.mjs <default> --seeds ${MORE_SEEDS} --json`,
    oneCoreMs: median(moreOne),
    twoCoresMs: median(moreTwo),
    speedup: median(moreOne) / median(moreTwo),
    target: MORE_TARGET,
  },
  tsxCommand: `node --import tsx src/cli/sim.ts <default> --seeds ${SEEDS} --json`,
  tsxOneCoreMs: median(tsxOne),
  tsxTwoCoresMs: median(tsxTwo),
  tsxCommandSpeedup: median(tsxOne) / median(tsxTwo),
  monteCarloOneThreadMs: median(mc1),
  monteCarloTwoThreadsMs: median(mc2),
  monteCarloSpeedup: median(mc1) / median(mc2),
  samples: { one, two, fixed, moreOne, moreTwo, tsxOne, tsxTwo, mc1, mc2, alone, together },
  loadAverage: { before: loadBefore, after: loadAfter },
  when: new Date().toISOString(),
};
const ms = (x: number) => `${x.toFixed(0)} ms`;
const { parts, moreSeeds } = rows;
console.log(`${rows.command}
  1 core  (taskset -c 0):   ${ms(rows.oneCoreMs)} (median of ${REPEATS})
  2 cores (taskset -c 0,1): ${ms(rows.twoCoresMs)} → ${rows.commandSpeedup.toFixed(2)}× (target ≥ ${TARGET}×)
What bounds it:
  fixed part (--seeds 1, 1 core):      ${ms(parts.fixedMs)}
  one run, 1 core:                     ${parts.perRunOneCoreMs.toFixed(3)} ms
  one run, both cores busy:            ${parts.perRunBothCoresBusyMs.toFixed(3)} ms (the cores scale ${parts.coreScaling.toFixed(2)}×)
  warm-up, per thread (first 20 runs): ${ms(parts.warmUpPerThreadMs)}
  best 2-core time (fixed part + ${SEEDS} runs split in two, no warm-up): ${ms(parts.bestTwoCoresMs)} → at most ${parts.bestSpeedup.toFixed(2)}×
${moreSeeds.command}
  1 core: ${ms(moreSeeds.oneCoreMs)}, 2 cores: ${ms(moreSeeds.twoCoresMs)} → ${moreSeeds.speedup.toFixed(2)}× (target ≥ ${MORE_TARGET}×) ${moreSeeds.speedup >= MORE_TARGET ? "✓" : "✗"} (median of ${moreOne.length})
${rows.tsxCommand}
  1 core: ${ms(rows.tsxOneCoreMs)}, 2 cores: ${ms(rows.tsxTwoCoresMs)} → ${rows.tsxCommandSpeedup.toFixed(2)}×
Monte Carlo in-process (bundled, fresh workers each time), ${SEEDS} seeds: 1 thread ${ms(rows.monteCarloOneThreadMs)}, 2 threads ${ms(rows.monteCarloTwoThreadsMs)} → ${rows.monteCarloSpeedup.toFixed(2)}×
load average before ${loadBefore.map((x) => x.toFixed(2)).join(" ")}, after ${loadAfter.map((x) => x.toFixed(2)).join(" ")}`);
writeFileSync(join(import.meta.dirname, "cli-results.json"), `${JSON.stringify(rows, null, 2)}\n`);
