/**
 * The engine of this checkout against the engine of another commit, side by side: each is
 * bundled (esbuild, as the CLI is) into a loop that times one run of a scenario after a warm-up,
 * and fresh processes of the two alternate (base, this, base, this, ...), so that the machine's
 * load falls on both alike. Per run: CPU time (process.cpuUsage, which other processes' load
 * inflates less than wall-clock time) and wall-clock time; the figure is the ratio of medians.
 * Used by `npm run bench` (BENCH_BASE, default c579a6e, main on 2026-12-01; none skips it).
 */

import { spawnSync } from "node:child_process";
import { mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { median } from "./common.ts";

export interface AbCase {
  name: string;
  /** Partial scenario (JSON), completed from the defaults by each engine. */
  scenario: unknown;
}

export interface AbRow {
  name: string;
  baseCpuMs: number;
  cpuMs: number;
  baseWallMs: number;
  wallMs: number;
  /** base CPU per run / this CPU per run: above 1 is faster here. */
  speedup: number;
  samples: { base: number[]; here: number[] };
}

const WARM_UP = 400;
const RUNS = 1500;

/** A loop over root's engine: prints [cpuMsPerRun, wallMsPerRun] per case, as JSON. */
function loopSource(root: string, cases: AbCase[]): string {
  return `
import { runScenario } from ${JSON.stringify(join(root, "src/sim/engine.ts"))};
import { parseScenario } from ${JSON.stringify(join(root, "src/sim/scenario/index.ts"))};
const out = [];
for (const input of ${JSON.stringify(cases.map((c) => c.scenario))}) {
  const s = parseScenario(input);
  for (let i = 0; i < ${WARM_UP}; i++) runScenario(s, { seed: i });
  const c = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < ${RUNS}; i++) runScenario(s, { seed: i });
  const wall = performance.now() - t0;
  const d = process.cpuUsage(c);
  out.push([(d.user + d.system) / 1000 / ${RUNS}, wall / ${RUNS}]);
}
console.log(JSON.stringify(out));
`;
}

async function bundle(root: string, cases: AbCase[], dir: string, name: string): Promise<string> {
  const entry = join(dir, `${name}.ts`);
  writeFileSync(entry, loopSource(root, cases));
  const outfile = join(dir, `${name}.mjs`);
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "error",
  });
  return outfile;
}

/** null when the base cannot be checked out (no git, unknown commit). */
export async function compareWithBase(
  base: string,
  cases: AbCase[],
  repeats: number,
): Promise<AbRow[] | null> {
  const here = join(import.meta.dirname, "..");
  const dir = mkdtempSync(join(tmpdir(), "bench-ab-"));
  const baseRoot = join(dir, "base");
  const archive = spawnSync(
    "sh",
    ["-c", `mkdir -p "${baseRoot}" && git archive "${base}" src | tar -x -C "${baseRoot}"`],
    { cwd: here, encoding: "utf8" },
  );
  if (archive.status !== 0) {
    console.log(`(no comparison with ${base}: ${archive.stderr.trim()})`);
    return null;
  }
  // The base's imports resolve through this checkout's packages.
  symlinkSync(join(here, "node_modules"), join(baseRoot, "node_modules"));
  const baseLoop = await bundle(baseRoot, cases, dir, "base");
  const hereLoop = await bundle(here, cases, dir, "here");
  const run = (file: string): number[][] => {
    const r = spawnSync(process.execPath, [file], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`${file}: ${r.stderr}`);
    return JSON.parse(r.stdout) as number[][];
  };
  const baseRuns: number[][][] = [];
  const hereRuns: number[][][] = [];
  for (let k = 0; k < repeats; k++) {
    baseRuns.push(run(baseLoop));
    hereRuns.push(run(hereLoop));
  }
  return cases.map((c, i) => {
    const col = (runs: number[][][], j: number) => runs.map((r) => r[i]![j]!);
    const baseCpuMs = median(col(baseRuns, 0));
    const cpuMs = median(col(hereRuns, 0));
    return {
      name: c.name,
      baseCpuMs,
      cpuMs,
      baseWallMs: median(col(baseRuns, 1)),
      wallMs: median(col(hereRuns, 1)),
      speedup: baseCpuMs / cpuMs,
      samples: { base: col(baseRuns, 0), here: col(hereRuns, 0) },
    };
  });
}
