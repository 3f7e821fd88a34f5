/**
 * `npm run bench:cli`: `npm run sim -- <default> --seeds 1000` on 1 core and on 2 cores (issue 8's
 * target: at least 1.8× faster with 2). The command runs as npm's script does (node
 * scripts/sim.mjs: the bundled CLI, built beforehand), without npm's own start-up, pinned with
 * taskset to CPU 0, then to CPUs 0–1, alternating, five times each; the CLI sees the cores it is
 * given (os.availableParallelism follows the affinity) and starts that many threads. The
 * TypeScript entry through tsx (the command before the bundle) is timed the same way, for
 * comparison, and so is the bundled in-process Monte Carlo (no process start-up).
 * Prints the medians and the load average, writes bench/cli-results.json.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { cliBundle } from "../scripts/sim.mjs";
import type { parallelMonteCarlo as ParallelMonteCarlo } from "../src/cli/parallelMonteCarlo.ts";
import { DEFAULT_SCENARIO } from "../src/sim/scenario.ts";

const SEEDS = 1000;
const REPEATS = 5;
const root = join(import.meta.dirname, "..");
const scenarioFile = join(mkdtempSync(join(tmpdir(), "bench-cli-")), "default.json");
writeFileSync(scenarioFile, "{}");

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

const BUNDLED = ["scripts/sim.mjs"];
const TSX = ["--import", "tsx", "src/cli/sim.ts"];

function command(cpus: string, entry: string[]): number {
  const t0 = performance.now();
  const r = spawnSync(
    "taskset",
    ["-c", cpus, process.execPath, ...entry, scenarioFile, "--seeds", String(SEEDS), "--json"],
    { cwd: root, encoding: "utf8" },
  );
  if (r.status !== 0) throw new Error(`sim failed: ${r.stderr}`);
  return performance.now() - t0;
}

const { parallelMonteCarlo } = (await import(
  pathToFileURL(join(await cliBundle(), "parallelMonteCarlo.mjs")).href
)) as { parallelMonteCarlo: typeof ParallelMonteCarlo };

const loadBefore = loadavg();
const one: number[] = [];
const two: number[] = [];
const tsxOne: number[] = [];
const tsxTwo: number[] = [];
command("0,1", BUNDLED); // the bundle is built (when a source changed)
command("0,1", TSX); // tsx's transform cache is warm
for (let i = 0; i < REPEATS; i++) {
  one.push(command("0", BUNDLED));
  two.push(command("0,1", BUNDLED));
  tsxOne.push(command("0", TSX));
  tsxTwo.push(command("0,1", TSX));
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

const rows = {
  command: `node scripts/sim.mjs <default> --seeds ${SEEDS} --json`,
  oneCoreMs: median(one),
  twoCoresMs: median(two),
  commandSpeedup: median(one) / median(two),
  tsxCommand: `node --import tsx src/cli/sim.ts <default> --seeds ${SEEDS} --json`,
  tsxOneCoreMs: median(tsxOne),
  tsxTwoCoresMs: median(tsxTwo),
  tsxCommandSpeedup: median(tsxOne) / median(tsxTwo),
  monteCarloOneThreadMs: median(mc1),
  monteCarloTwoThreadsMs: median(mc2),
  monteCarloSpeedup: median(mc1) / median(mc2),
  samples: { one, two, tsxOne, tsxTwo, mc1, mc2 },
  loadAverage: { before: loadBefore, after: loadAfter },
  when: new Date().toISOString(),
};
console.log(`${rows.command}
  1 core  (taskset -c 0):   ${rows.oneCoreMs.toFixed(0)} ms (median of ${REPEATS})
  2 cores (taskset -c 0,1): ${rows.twoCoresMs.toFixed(0)} ms → ${rows.commandSpeedup.toFixed(2)}× (target ≥ 1.8×)
${rows.tsxCommand}
  1 core: ${rows.tsxOneCoreMs.toFixed(0)} ms, 2 cores: ${rows.tsxTwoCoresMs.toFixed(0)} ms → ${rows.tsxCommandSpeedup.toFixed(2)}×
Monte Carlo in-process (bundled), ${SEEDS} seeds: 1 thread ${rows.monteCarloOneThreadMs.toFixed(0)} ms, 2 threads ${rows.monteCarloTwoThreadsMs.toFixed(0)} ms → ${rows.monteCarloSpeedup.toFixed(2)}×
load average before ${loadBefore.map((x) => x.toFixed(2)).join(" ")}, after ${loadAfter.map((x) => x.toFixed(2)).join(" ")}`);
writeFileSync(join(import.meta.dirname, "cli-results.json"), `${JSON.stringify(rows, null, 2)}\n`);
