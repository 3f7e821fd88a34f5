/**
 * `npm run bench`: how fast the cluster engine is (its targets: one 30-day run of the
 * default scenario under 2 ms, 1,000 seeds under 2 s, in Node). Each case is warmed up, then
 * timed several times; the table shows the median, and bench/results.json keeps every figure.
 * Timings live here only, never in pass/fail tests. Two more targets are rows of the table:
 * fitting a 100,000-event log and replaying a 20,000-event one, each under 1 s ("failures" is
 * the fault starts fitted, for the fit).
 *
 * Then the target ratios, printed directly: all four policies on the headline cluster against
 * the default run (≤ 3×), the default run against the engine of BENCH_BASE (default c579a6e, main
 * on 2026-12-01: "no slower"), measured side by side (engineAb.ts), and the default run with slow
 * hosts on against it (≤ 1.5×).
 */

import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { runScenario } from "../src/sim/engine.ts";
import { generateFailureTrace } from "../src/sim/failures/failureTrace.ts";
import { replayLogOfRun, replayScenarioFromEvents } from "../src/sim/failures/replayLog.ts";
import { fitText } from "../src/sim/fit/fitFile.ts";
import { monteCarlo } from "../src/sim/monteCarlo/monteCarlo.ts";
import { presetById } from "../src/sim/presets.ts";
import { DEFAULT_SCENARIO, parseScenario, type Scenario } from "../src/sim/scenario/index.ts";
import { median } from "./common.ts";
import { compareWithBase } from "./engineAb.ts";
import { fitBenchLog } from "./fitLog.ts";

interface Case {
  name: string;
  /** Failures simulated by one call of `run` (events that drive the engine). */
  failures: number;
  warmUp: number;
  repeats: number;
  run: () => void;
  target?: { ms: number; label: string };
}

interface Row {
  name: string;
  medianMs: number;
  minMs: number;
  maxMs: number;
  repeats: number;
  failures: number;
  failuresPerSecond: number;
  target: string | null;
  meetsTarget: boolean | null;
}

function measure(c: Case): Row {
  for (let i = 0; i < c.warmUp; i++) c.run();
  const times: number[] = [];
  for (let i = 0; i < c.repeats; i++) {
    const t0 = performance.now();
    c.run();
    times.push(performance.now() - t0);
  }
  const medianMs = median(times);
  return {
    name: c.name,
    medianMs,
    minMs: Math.min(...times),
    maxMs: Math.max(...times),
    repeats: c.repeats,
    failures: c.failures,
    failuresPerSecond: c.failures / (medianMs / 1000),
    target: c.target ? c.target.label : null,
    meetsTarget: c.target ? medianMs < c.target.ms : null,
  };
}

const failuresOf = (s: Scenario, seeds = 1) => {
  let n = 0;
  for (let i = 0; i < seeds; i++) n += generateFailureTrace(s, (s.seed + i) >>> 0).count;
  return n;
};

const s = DEFAULT_SCENARIO;
const huge = parseScenario({ cluster: { gpus: 800_000, gpusPerHost: 8, replicas: 100_000 } });
const MC_SEEDS = 1000;
// Llama 3's cause mix (racks, job-wide bugs, hangs) with a limited spare pool: every §3 path.
const llama = parseScenario({
  ...presetById("llama3-405b-causes")?.scenario,
  spares: { pool: "limited", hosts: 8, repairHours: 48 },
});

// §4: all four policies on the headline cluster (target: at most 3× the default run).
const four = parseScenario({ policies: ["synchronous", "ftHsdp", "inMemory", "hotSpare"] });
// §6: the default run with the Greyhound preset's slow hosts on (target: at most 1.5× without).
const slowOn = parseScenario({ slow: presetById("slow-greyhound")?.scenario.slow });
// §7: the default run with DiLoCo added beside the default pair (target: at most 1.3× without).
const withDiloco = parseScenario({ policies: ["synchronous", "ftHsdp", "diloco"] });

// §5: a replay of a 20,000-event log (the bound), on the headline cluster with all four policies:
// a drawn run's failures, cut to 20,000 events, replayed. Timed with the validation of the log
// (what opening a replay file or link costs) and without.
const dense = parseScenario({
  ...four,
  version: undefined,
  failures: { perHostDay: 0.06 },
  training: { days: 30 },
});
const denseRun = runScenario(dense, { record: true }).trace!.failures;
const denseLog = replayLogOfRun(dense, denseRun);
const replayLog = { ...denseLog, events: denseLog.events.slice(0, 20_000) };
const replay = replayScenarioFromEvents(dense, replayLog);
const replayInput = JSON.parse(JSON.stringify(replay));

// §5: fitting a 100,000-event log (fault starts and ends; bench/fitLog.ts), as the fit worker
// does: parse the JSON, every figure, the fitted scenario and the replay log.
const fitLog = fitBenchLog();
const fitOnce = () => {
  const o = fitText(fitLog.text, { unit: "days", name: "bench" });
  if (!o.ok) throw new Error(o.message);
};

const cases: Case[] = [
  {
    name: "failure trace only (default, 30 days)",
    failures: failuresOf(s),
    warmUp: 300,
    repeats: 301,
    run: () => generateFailureTrace(s, s.seed),
  },
  {
    name: "one run (default, 30 days)",
    failures: failuresOf(s),
    warmUp: 300,
    repeats: 301,
    run: () => runScenario(s),
    target: { ms: 2, label: "< 2 ms" },
  },
  {
    name: "one run, all four policies (default cluster)",
    failures: failuresOf(four),
    warmUp: 300,
    repeats: 301,
    run: () => runScenario(four),
  },
  {
    name: "one run, DiLoCo added (default + diloco)",
    failures: failuresOf(withDiloco),
    warmUp: 300,
    repeats: 301,
    run: () => runScenario(withDiloco),
  },
  {
    name: "one run, slow hosts on (default + Greyhound's slow group)",
    failures: failuresOf(slowOn),
    warmUp: 300,
    repeats: 301,
    run: () => runScenario(slowOn),
  },
  {
    name: "one run, recorded (timelines, log, curves)",
    failures: failuresOf(s),
    warmUp: 100,
    repeats: 101,
    run: () => runScenario(s, { record: true }),
  },
  {
    name: `Monte Carlo, ${MC_SEEDS.toLocaleString("en-US")} seeds (default)`,
    failures: failuresOf(s, MC_SEEDS),
    warmUp: 1,
    repeats: 5,
    run: () => monteCarlo(s, MC_SEEDS),
    target: { ms: 2000, label: "< 2 s" },
  },
  {
    name: "one run, Llama 3 cause mix, 8 spares (54 days)",
    failures: failuresOf(llama),
    warmUp: 100,
    repeats: 101,
    run: () => runScenario(llama),
    target: { ms: 2, label: "< 2 ms" },
  },
  {
    name: `replay of a ${replayLog.events.length.toLocaleString("en-US")}-event log, all four policies`,
    failures: failuresOf(replay),
    warmUp: 20,
    repeats: 41,
    run: () => runScenario(replay),
    target: { ms: 1000, label: "< 1 s" },
  },
  {
    name: `replay of a ${replayLog.events.length.toLocaleString("en-US")}-event log: validate the file, then run`,
    failures: failuresOf(replay),
    warmUp: 5,
    repeats: 21,
    run: () => runScenario(parseScenario(replayInput)),
    target: { ms: 1000, label: "< 1 s" },
  },
  {
    name: `fit a ${fitLog.events.toLocaleString("en-US")}-event log (${(fitLog.text.length / 1e6).toFixed(1)} MB of JSON)`,
    failures: fitLog.events / 2,
    warmUp: 1,
    repeats: 5,
    run: fitOnce,
    target: { ms: 1000, label: "< 1 s" },
  },
  {
    name: "one run, 800K GPUs in 100K replicas",
    failures: failuresOf(huge),
    warmUp: 10,
    repeats: 21,
    run: () => runScenario(huge),
  },
];

const rows = cases.map(measure);

const fmt = (v: number, digits: number) =>
  v.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
const table = [
  ["case", "median ms", "min ms", "failures", "failures/s", "target"],
  ...rows.map((r) => [
    r.name,
    fmt(r.medianMs, 3),
    fmt(r.minMs, 3),
    r.failures.toLocaleString("en-US"),
    `${fmt(r.failuresPerSecond / 1e6, 2)} M`,
    r.target === null ? "" : `${r.target} ${r.meetsTarget ? "✓" : "✗"}`,
  ]),
];
const widths = table[0]!.map((_, c) => Math.max(...table.map((row) => row[c]!.length)));
const lines = table.map((row) =>
  row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join("  "),
);
// The load average says how much other work shared the CPUs: medians are wall-clock times.
const machine = `Node ${process.version}, ${cpus()[0]?.model ?? "unknown CPU"} × ${cpus().length}, load average ${loadavg()
  .map((l) => l.toFixed(2))
  .join(" ")}`;
console.log(`${machine}\n`);
console.log(lines.join("\n"));

const medianOf = (name: string) => rows.find((r) => r.name === name)!.medianMs;
const fourRatio =
  medianOf("one run, all four policies (default cluster)") / medianOf("one run (default, 30 days)");
console.log(
  `\nall four policies / the default run (synchronous + FT-HSDP), same cluster and seed: ${fourRatio.toFixed(2)}× (target ≤ 3×) ${fourRatio <= 3 ? "✓" : "✗"}`,
);

const slowRatio =
  medianOf("one run, slow hosts on (default + Greyhound's slow group)") /
  medianOf("one run (default, 30 days)");
console.log(
  `slow hosts on / off, default run (Greyhound's slow group, ${slowOn.slow.perHostDay} a host-day): ${slowRatio.toFixed(2)}× (target ≤ 1.5×) ${slowRatio <= 1.5 ? "✓" : "✗"}`,
);

const dilocoRatio =
  medianOf("one run, DiLoCo added (default + diloco)") / medianOf("one run (default, 30 days)");
console.log(
  `DiLoCo added / the default run, same cluster and seed: ${dilocoRatio.toFixed(2)}× (target ≤ 1.3×) ${dilocoRatio <= 1.3 ? "✓" : "✗"}`,
);

const BASE = process.env.BENCH_BASE ?? "c579a6e";
const AB_REPEATS = Number(process.env.BENCH_AB_REPEATS ?? 5);
const ab =
  BASE === "none"
    ? null
    : await compareWithBase(
        BASE,
        [
          { name: "one run (default, 30 days)", scenario: {} },
          {
            name: "one run, all four policies (default cluster)",
            scenario: { policies: ["synchronous", "ftHsdp", "inMemory", "hotSpare"] },
          },
        ],
        AB_REPEATS,
      );
if (ab) {
  console.log(
    `\nthis checkout against ${BASE}, fresh processes alternating (${AB_REPEATS} each), CPU ms a run (median), load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}:`,
  );
  for (const r of ab)
    console.log(
      `  ${r.name}: ${BASE} ${fmt(r.baseCpuMs, 3)}, here ${fmt(r.cpuMs, 3)} → ${fmt(r.speedup, 2)}× as fast ${r.speedup >= 1 ? "✓" : "✗"} (wall ${fmt(r.baseWallMs, 3)} / ${fmt(r.wallMs, 3)})`,
    );
  const four = ab[1]!;
  const one = ab[0]!;
  console.log(
    `  all four policies / the default run, here: ${fmt(four.cpuMs / one.cpuMs, 2)}× (target ≤ 3×)`,
  );
}

const out = join(import.meta.dirname, "results.json");
writeFileSync(
  out,
  `${JSON.stringify({ date: new Date().toISOString(), machine, rows, fourPoliciesOverDefault: fourRatio, slowOverDefault: slowRatio, base: BASE, againstBase: ab }, null, 2)}\n`,
);
console.log(`\nwritten to ${out}`);
