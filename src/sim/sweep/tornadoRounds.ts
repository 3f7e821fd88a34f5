/**
 * The tornado's rounds, apart from what runs them (the page's worker pool, a bench's threads):
 * every scenario of the plan runs seeds 0..19, then the rows whose bars are not yet within the
 * precision asked for (and the base) double their seeds, up to the cap. Every scenario runs the
 * same seed indices, so the bars pair runs on the same failures. Tasks are slices of about
 * 200,000 failures, spread over the executors as each comes free.
 */
import { runsPerSlice } from "../monteCarlo/monteCarlo.ts";
import type { Scenario } from "../scenario/index.ts";
import {
  type EttrRuns,
  scenariosNeedingSeeds,
  summarizeTornado,
  TORNADO_FIRST_SEEDS,
  type TornadoPlan,
  type TornadoResult,
  type TornadoSettings,
} from "./tornado.ts";

/** Runs seeds from..from+count−1 of a scenario, each policy's ETTR a run (a worker's clusterEttrRuns). */
export type TornadoExec = (scenario: Scenario, from: number, count: number) => Promise<EttrRuns>;

export interface TornadoRoundHooks {
  cancelled(): boolean;
  /** After each round: the bars so far (they tighten round by round). */
  onRound(result: TornadoResult, seeds: number): void;
  /** Runs done, runs of the rounds started so far, and this round's seeds per scenario. */
  onProgress(done: number, total: number, seeds: number): void;
}

interface Task {
  scenario: number;
  from: number;
  count: number;
}

/** The tornado's bars at the precision asked for (or the cap); null when cancelled. */
export async function runTornadoRounds(
  plan: TornadoPlan,
  settings: TornadoSettings,
  workers: readonly TornadoExec[],
  hooks: TornadoRoundHooks,
): Promise<TornadoResult | null> {
  const n = plan.scenarios.length;
  const runs: EttrRuns[] = plan.scenarios.map(() => ({}));
  const seeds = new Array<number>(n).fill(0);
  let target = Math.min(TORNADO_FIRST_SEEDS, settings.maxSeeds);
  let need = plan.scenarios.map((_, i) => i);
  let done = 0;
  let total = 0;
  let result: TornadoResult | null = null;
  while (need.length > 0 && !hooks.cancelled()) {
    const tasks: Task[] = [];
    for (const i of need) {
      const s = plan.scenarios[i] as Scenario;
      // Slices of about 200,000 failures: seconds at most, so a supervisor's watchdog never fires.
      const chunk = runsPerSlice(s, 200_000, 50);
      for (let from = seeds[i] as number; from < target; from += chunk)
        tasks.push({ scenario: i, from, count: Math.min(chunk, target - from) });
    }
    total += tasks.reduce((a, t) => a + t.count, 0);
    hooks.onProgress(done, total, target);
    const grown = new Map<number, EttrRuns>();
    for (const i of need) {
      const old = runs[i] as EttrRuns;
      const next: EttrRuns = {};
      for (const p of plan.policies) {
        const a = new Float64Array(target);
        const prev = old[p];
        if (prev) a.set(prev.subarray(0, seeds[i]));
        next[p] = a;
      }
      grown.set(i, next);
    }
    const queue = [...tasks];
    const drain = async (exec: TornadoExec) => {
      for (let t = queue.shift(); t !== undefined && !hooks.cancelled(); t = queue.shift()) {
        const task = t;
        const out = await exec(plan.scenarios[task.scenario] as Scenario, task.from, task.count);
        if (hooks.cancelled()) return;
        const into = grown.get(task.scenario) as EttrRuns;
        for (const p of plan.policies) {
          const src = out[p];
          if (src) into[p]?.set(src, task.from);
        }
        done += task.count;
        hooks.onProgress(done, total, target);
      }
    };
    await Promise.all(workers.slice(0, Math.max(1, tasks.length)).map(drain));
    if (hooks.cancelled()) return null;
    for (const [i, r] of grown) {
      runs[i] = r;
      seeds[i] = target;
    }
    result = summarizeTornado(plan, runs, seeds);
    hooks.onRound(result, target);
    if (target >= settings.maxSeeds) break;
    target = Math.min(settings.maxSeeds, target * 2);
    need = scenariosNeedingSeeds(plan, result, settings.precision, seeds, target);
  }
  return hooks.cancelled() ? null : result;
}
