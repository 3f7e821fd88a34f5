/**
 * `npm run bench`'s two FT-HSDP-heavy rows alone against another commit's engine, in fresh
 * processes alternating (engineAb.ts): the default run and the default run with the Greyhound
 * preset's slow hosts on. For a change to the engine's loops: `BENCH_BASE=main npx tsx
 * bench/abRows.ts` (BENCH_AB_REPEATS processes of each, default 7). Prints medians, every
 * sample and the load average before and after.
 */
import { loadavg } from "node:os";
import { presetById } from "../src/sim/presets.ts";
import { compareWithBase } from "./engineAb.ts";

const base = process.env.BENCH_BASE ?? "main";
const repeats = Number(process.env.BENCH_AB_REPEATS ?? 7);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
const loadBefore = load();
const rows = await compareWithBase(
  base,
  [
    { name: "one run (default, 30 days)", scenario: {} },
    { name: "one run, slow hosts on", scenario: { slow: presetById("slow-greyhound")?.scenario.slow } },
  ],
  repeats,
);
if (!rows) process.exit(1);
console.log(`against ${base}, ${repeats} processes each, alternating; load ${loadBefore} → ${load()}`);
for (const r of rows) {
  const pct = ((r.cpuMs / r.baseCpuMs - 1) * 100).toFixed(1);
  console.log(
    `${r.name}: base ${r.baseCpuMs.toFixed(3)} ms, here ${r.cpuMs.toFixed(3)} ms CPU a run (median; ${pct} %), wall ${r.baseWallMs.toFixed(3)} / ${r.wallMs.toFixed(3)}`,
  );
  console.log(`  base ${r.samples.base.map((x) => x.toFixed(3)).join(" ")}`);
  console.log(`  here ${r.samples.here.map((x) => x.toFixed(3)).join(" ")}`);
}
