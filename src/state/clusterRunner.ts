/**
 * Keeps the store's results in step with its scenario: on every change (debounced), one
 * recorded run, then a Monte Carlo in the worker. A newer change supersedes an older one; its
 * late answers are dropped. (The address bar follows the store through address.ts.)
 */
import { proxy } from "comlink";
import { derived } from "../sim/derived.ts";
import type { Scenario } from "../sim/scenario.ts";
import type { MonteCarloResult } from "../sim/types.ts";
import { simWorker } from "./simClient.ts";
import { type AppState, appStore, MC_SEEDS } from "./store.ts";
import { reportRestart } from "./workerHealth.ts";
import { DEFAULT_SILENCE_MS } from "./workerSupervisor.ts";

const onRestart = reportRestart("simulation");

const DEBOUNCE_MS = 80;

/**
 * A recorded run is one synchronous computation with no progress to report, and its cost grows
 * with the failures it draws (the largest scenario the validator accepts, a million expected
 * failures, took 4.6 s recorded at load 18 on two cores: bench/budget-results.json). Its silence
 * limit grows with them, 30 µs a failure on top of the default, so a slow machine is not taken
 * for a dead worker; a hung worker is still found, late.
 */
export function recordedRunSilenceMs(s: Scenario): number {
  return DEFAULT_SILENCE_MS + Math.ceil(derived(s).expectedFailures * 0.03);
}

let request = 0;

async function recompute(scenario: AppState["scenario"]): Promise<void> {
  const mine = ++request;
  const worker = simWorker();
  appStore.setState({ running: true, runError: null, mc: null, mcProgress: null, mcSoFar: null });
  try {
    const run = await worker.call((api) => api.clusterRun(scenario, true), {
      onRestart,
      silenceMs: recordedRunSilenceMs(scenario),
    });
    if (mine !== request) return;
    appStore.setState({ run, running: false });
    const seeds = MC_SEEDS;
    const mc = await worker.call(
      (api, alive) =>
        api.clusterMonteCarlo(
          scenario,
          seeds,
          proxy((done: number, total: number, soFar?: MonteCarloResult) => {
            alive();
            if (mine === request) appStore.setState({ mcProgress: { done, total }, mcSoFar: soFar ?? null });
          }),
          true,
        ),
      { onRestart },
    );
    if (mine !== request || mc === null) return;
    appStore.setState({ mc, mcProgress: null, mcSoFar: null });
  } catch (e) {
    if (mine === request)
      appStore.setState({
        running: false,
        mcProgress: null,
        mcSoFar: null,
        runError: (e as Error).message ?? String(e),
      });
  }
}

/** Start following the store. Returns a function that stops it. */
export function startClusterRunner(): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  void recompute(appStore.getState().scenario);
  const unsubscribe = appStore.subscribe((s, prev) => {
    if (s.scenario !== prev.scenario) {
      clearTimeout(timer);
      timer = setTimeout(() => void recompute(s.scenario), DEBOUNCE_MS);
    }
  });
  return () => {
    clearTimeout(timer);
    unsubscribe();
  };
}
