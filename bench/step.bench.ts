/**
 * `npm run bench:step`: the step model's targets: bucket assignment plus timeline for a
 * 405B-shaped transformer under 50 ms; the 40-size bucket-cap sweep under 1 s.
 */
import { DEFAULT_STEP_CONFIG, presetInfo } from "../src/step/presetCatalog.ts";
import { presetParams } from "../src/step/presets.ts";
import { runStep, type StepConfig } from "../src/step/stepTimeline.ts";
import { sweepBucketCap } from "../src/step/sweep.ts";

function timeMs(runs: number, f: () => void): { median: number; max: number } {
  f(); // warm-up: JIT and caches
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    f();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)] as number, max: times.at(-1) as number };
}

const rows: [string, string, number, number, number][] = [];
for (const id of ["llama3-405b", "resnet50"]) {
  const params = presetParams(id);
  for (const mode of ["ddp", "hsdp"] as const) {
    const config: StepConfig = {
      ...DEFAULT_STEP_CONFIG,
      compute: presetInfo(id).compute,
      parallel: { ...DEFAULT_STEP_CONFIG.parallel, mode },
    };
    const label = `${presetInfo(id).label} (${params.length} params, ${mode.toUpperCase()})`;
    const run = timeMs(50, () => runStep(params, config));
    rows.push([label, "assignment + timeline", run.median, run.max, 50]);
    const sweep = timeMs(10, () => sweepBucketCap(params, config));
    rows.push([label, "sweep, 40 caps", sweep.median, sweep.max, 1000]);
  }
}

console.log(`node ${process.version}`);
console.log(
  "model".padEnd(42),
  "what".padEnd(22),
  "median ms".padStart(10),
  "max ms".padStart(9),
  "target ms".padStart(10),
);
for (const [model, what, median, max, target] of rows) {
  console.log(
    model.padEnd(42),
    what.padEnd(22),
    median.toFixed(2).padStart(10),
    max.toFixed(2).padStart(9),
    `${median < target ? "<" : "≥"} ${target}`.padStart(10),
  );
}
