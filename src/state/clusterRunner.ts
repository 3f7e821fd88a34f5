/**
 * Keeps the store's results in step with its scenario: on every change (debounced), one
 * recorded run, then a Monte Carlo in the worker. A newer change supersedes an older one; its
 * late answers are dropped. Also mirrors the state into the URL hash, so the address bar is
 * always a share link for what is on screen.
 */
import { proxy } from "comlink";
import { simWorker } from "./simClient.ts";
import { type AppState, appStore, hashFor, stateFromHash } from "./store.ts";

const DEBOUNCE_MS = 80;

let request = 0;

async function recompute(scenario: AppState["scenario"]): Promise<void> {
  const mine = ++request;
  const worker = simWorker();
  appStore.setState({ running: true, runError: null, mc: null, mcProgress: null });
  try {
    const run = await worker.clusterRun(scenario, true);
    if (mine !== request) return;
    appStore.setState({ run, running: false });
    const seeds = appStore.getState().mcSeeds;
    const mc = await worker.clusterMonteCarlo(
      scenario,
      seeds,
      proxy((done: number, total: number) => {
        if (mine === request) appStore.setState({ mcProgress: { done, total } });
      }),
    );
    if (mine !== request || mc === null) return;
    appStore.setState({ mc, mcProgress: null });
  } catch (e) {
    if (mine === request) appStore.setState({ running: false, runError: (e as Error).message ?? String(e) });
  }
}

/** Start following the store. Returns a function that stops it. */
export function startClusterRunner(): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const syncHash = (s: AppState) => {
    const next = hashFor(s, location.hash);
    if (next !== location.hash) history.replaceState(null, "", next);
  };
  void recompute(appStore.getState().scenario);
  const unsubscribe = appStore.subscribe((s, prev) => {
    if (s.scenario !== prev.scenario) {
      clearTimeout(timer);
      timer = setTimeout(() => void recompute(s.scenario), DEBOUNCE_MS);
    }
    if (s.scenario !== prev.scenario || s.tab !== prev.tab) syncHash(s);
  });
  // A link pasted into the address bar of an open tab changes only the hash: follow it.
  const onHashChange = () => appStore.setState(stateFromHash(location.hash));
  window.addEventListener("hashchange", onHashChange);
  return () => {
    clearTimeout(timer);
    unsubscribe();
    window.removeEventListener("hashchange", onHashChange);
  };
}
