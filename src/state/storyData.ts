/**
 * What the story's figures compute, asked of the story's own simulation worker (the UI never
 * simulates). Requests run one at a time, in the order asked, and each answer is kept: going back
 * to a chapter shows its figure at once, and the same scenario always gives the same numbers.
 */
import { proxy, type Remote } from "comlink";
import { parseScenario, type ScenarioInput } from "../sim/scenario/index.ts";
import type { MetricsSummary, MonteCarloResult, PerPolicy, PolicyMetrics, RunResult } from "../sim/types.ts";
import type { SimWorkerApi } from "../worker/sim.worker.ts";
import { spawnSimWorker } from "./simClient.ts";
import { type Supervised, supervise } from "./workerSupervisor.ts";

/**
 * The story's own worker: its Monte Carlo requests never supersede the app's (a worker runs one
 * Monte Carlo at a time), and the app's never hold up a chapter's figure.
 */
let worker: Supervised<SimWorkerApi> | null = null;
let queue: Promise<unknown> = Promise.resolve();
const cache = new Map<string, Promise<unknown>>();

function storyWorker(): Supervised<SimWorkerApi> {
  worker ??= supervise<SimWorkerApi>(() => spawnSimWorker("story"));
  return worker;
}

function enqueue<T>(
  key: string,
  task: (w: Remote<SimWorkerApi>, alive: () => void) => Promise<T>,
): Promise<T> {
  const hit = cache.get(key);
  if (hit) return hit as Promise<T>;
  const p = queue.then(() => storyWorker().call(task));
  // A failed request is forgotten, so that coming back to the chapter asks again.
  p.catch(() => cache.delete(key));
  queue = p.catch(() => undefined);
  cache.set(key, p);
  return p;
}

/**
 * The story compares the two original strategies, so its answers have both: a story scenario
 * that selected other policies (its `policies` is its own, never the page's) is refused here by
 * name instead of drawing a figure with a strategy missing.
 */
interface Pair<T> {
  synchronous: T;
  ftHsdp: T;
}
export type StoryRun = RunResult & Pair<PolicyMetrics>;
export type StoryMonteCarlo = MonteCarloResult & Pair<MetricsSummary>;

function withPair<T, R extends PerPolicy<T>>(r: R): R & Pair<T> {
  for (const key of ["synchronous", "ftHsdp"])
    if (r[key] === undefined) throw new Error(`the story's scenario does not run "${key}"`);
  return r as R & Pair<T>;
}

/** One run at the scenario's seed; with `record`, the trace the figures draw. */
export function storyRun(input: ScenarioInput, record: boolean): Promise<StoryRun> {
  const scenario = parseScenario(input);
  return enqueue(`run:${record}:${JSON.stringify(scenario)}`, async (w) =>
    withPair<PolicyMetrics, RunResult>(await w.clusterRun(scenario, record)),
  );
}

/** Monte Carlo over `seeds` seeds from the scenario's seed. */
export function storyMonteCarlo(input: ScenarioInput, seeds: number): Promise<StoryMonteCarlo> {
  const scenario = parseScenario(input);
  return enqueue(`mc:${seeds}:${JSON.stringify(scenario)}`, async (w, alive) => {
    const mc = await w.clusterMonteCarlo(scenario, seeds, proxy(alive));
    // Only this module uses this worker and it asks one thing at a time: nothing supersedes it.
    if (!mc) throw new Error("the story's Monte Carlo was cancelled");
    return withPair<MetricsSummary, MonteCarloResult>(mc);
  });
}
