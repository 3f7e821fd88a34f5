/**
 * `npm run bench:tornado`: the target, a full tornado of 12 knobs × 2 points × the selected
 * policies (the default two) on the headline cluster at ±1 point precision (95 %) in ≤ 10 s on 2
 * cores, with progress and cancel. It runs the page's own loop (src/sim/sweep/tornadoRounds.ts: rounds
 * of common seeds until every bar end is within ±1 point, cap 400 seeds) and the page worker's
 * clusterEttrRuns, in Node worker threads instead of the browser's workers: 2 threads (the
 * page's pool on this machine), then 1, alternating, REPEATS times each. Then a cancel 1 s into a
 * long one (the time from cancel to stopped), and the page's whole tornado (every knob that
 * applies) on 2 threads, once. Prints the figures with the load average; writes
 * bench/tornado-results.json.
 */
import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { Worker } from "node:worker_threads";
import { DEFAULT_SCENARIO, type Scenario } from "../src/sim/scenario/index.ts";
import {
  type EttrRuns,
  planTornado,
  type TornadoPlan,
  type TornadoSettings,
} from "../src/sim/sweep/tornado.ts";
import { runTornadoRounds, type TornadoExec } from "../src/sim/sweep/tornadoRounds.ts";

const REPEATS = 3;
const KNOBS = 12;
const TARGET_S = 10;
const settings: TornadoSettings = { amount: 0.5, precision: 0.01, maxSeeds: 400 };

interface Pool {
  execs: TornadoExec[];
  close(): Promise<void>;
}

async function startPool(n: number): Promise<Pool> {
  const workers = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<Worker>((resolve) => {
          const w = new Worker(new URL("./tornadoWorker.boot.mjs", import.meta.url));
          w.once("message", () => resolve(w));
        }),
    ),
  );
  let id = 0;
  const execs = workers.map(
    (w): TornadoExec =>
      (scenario: Scenario, from: number, count: number) =>
        new Promise<EttrRuns>((resolve) => {
          const mine = ++id;
          const on = (m: { id: number; out: EttrRuns }) => {
            if (m.id !== mine) return;
            w.off("message", on);
            resolve(m.out);
          };
          w.on("message", on);
          w.postMessage({ id: mine, scenario, from, count });
        }),
  );
  return { execs, close: async () => void (await Promise.all(workers.map((w) => w.terminate()))) };
}

/**
 * `k` numeric rows of the plan in the field table's order, those moved down and up (2 points)
 * first, then those at 0 (moved up only: 1 point).
 */
function twelveKnobs(full: TornadoPlan, k: number): TornadoPlan {
  const numeric = full.rows.filter((r) => !r.categorical);
  const rows = [
    ...numeric.filter((r) => r.ends.length === 2),
    ...numeric.filter((r) => r.ends.length === 1),
  ].slice(0, k);
  return { ...full, rows, scenarios: [full.base, ...rows.flatMap((r) => r.ends.map((e) => e.scenario))] };
}

/** Times a tornado on a started pool (the page's pool outlives one tornado: its start is not counted). */
async function timeTornado(plan: TornadoPlan, threads: number) {
  const pool = await startPool(threads);
  // Warm the threads up (V8 compiles the engine on first use), as a page that has run its Monte Carlo has.
  await Promise.all(pool.execs.map((e) => e(plan.base, 1000, 3)));
  let ticks = 0;
  const t0 = performance.now();
  const result = await runTornadoRounds(plan, settings, pool.execs, {
    cancelled: () => false,
    onRound: () => {},
    onProgress: () => {
      ticks++;
    },
  });
  const seconds = (performance.now() - t0) / 1000;
  await pool.close();
  if (!result) throw new Error("not cancelled, yet no result");
  return {
    seconds,
    progressTicks: ticks,
    worstHalfPoints: result.worstHalf * 100,
    seedsAtMost: Math.max(...result.rows.map((r) => r.seeds)),
    runs: result.rows.reduce((a, r) => a + r.seeds * r.plan.ends.length, 0),
  };
}

const full = planTornado(DEFAULT_SCENARIO, settings.amount);
const plan = twelveKnobs(full, KNOBS);
console.log(
  `Tornado bench: ${DEFAULT_SCENARIO.name}, ${plan.rows.length} knobs (${plan.scenarios.length - 1} points) × ${plan.policies.length} policies (${plan.rows.map((r) => r.axis).join(", ")}), ±${settings.precision * 100} point, cap ${settings.maxSeeds} seeds`,
);
const two: Awaited<ReturnType<typeof timeTornado>>[] = [];
const one: Awaited<ReturnType<typeof timeTornado>>[] = [];
for (let i = 0; i < REPEATS; i++) {
  const load = loadavg()[0]?.toFixed(2);
  two.push(await timeTornado(plan, 2));
  one.push(await timeTornado(plan, 1));
  console.log(
    `  run ${i + 1}: 2 threads ${two.at(-1)?.seconds.toFixed(2)} s, 1 thread ${one.at(-1)?.seconds.toFixed(2)} s (load ${load}); ±${two.at(-1)?.worstHalfPoints.toFixed(2)} points at worst, ${two.at(-1)?.seedsAtMost} seeds at most, ${two.at(-1)?.progressTicks} progress ticks`,
  );
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const twoS = median(two.map((r) => r.seconds));
const oneS = median(one.map((r) => r.seconds));

// Cancel 1 s into a long tornado (precision ±0.1 point, cap 5,000): the time from cancel to stopped.
const pool = await startPool(2);
let cancelled = false;
let cancelAt = 0;
setTimeout(() => {
  cancelled = true;
  cancelAt = performance.now();
}, 1000);
const r = await runTornadoRounds(plan, { ...settings, precision: 0.001, maxSeeds: 5000 }, pool.execs, {
  cancelled: () => cancelled,
  onRound: () => {},
  onProgress: () => {},
});
const cancelMs = performance.now() - cancelAt;
await pool.close();

const whole = await timeTornado(full, 2);
const load = loadavg().map((l) => l.toFixed(2));
console.log(
  `\n12 knobs, 2 threads: median ${twoS.toFixed(2)} s (target ≤ ${TARGET_S} s); 1 thread ${oneS.toFixed(2)} s; ratio ${(oneS / twoS).toFixed(2)}×`,
);
console.log(
  `Cancel: stopped ${cancelMs.toFixed(0)} ms after the cancel (the page terminates its workers at once); result ${r === null ? "null" : "not null"}`,
);
console.log(
  `The page's whole tornado (${full.rows.length} rows, ${full.scenarios.length} scenarios), 2 threads: ${whole.seconds.toFixed(2)} s, ±${whole.worstHalfPoints.toFixed(2)} points at worst`,
);
console.log(`Load average (1, 5, 15 min): ${load.join(", ")}`);
writeFileSync(
  new URL("./tornado-results.json", import.meta.url),
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      loadavg: load,
      knobs: plan.rows.map((x) => x.axis),
      settings,
      twoThreads: two,
      oneThread: one,
      medianTwoThreadsSeconds: twoS,
      medianOneThreadSeconds: oneS,
      cancelToStoppedMs: cancelMs,
      wholeTornado: { rows: full.rows.length, scenarios: full.scenarios.length, ...whole },
    },
    null,
    2,
  )}\n`,
);
