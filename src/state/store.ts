/**
 * The app's store: the scenario being explored, the view, and what the worker computed for it.
 * Its view (`v=`) and scenario (`s=`) are address parts (address.ts).
 * Vanilla zustand (no React in here), so tests can drive it directly; components subscribe
 * through useAppStore. The store never simulates: it asks the worker (see clusterRunner.ts).
 */
import { useStore } from "zustand";
import { createStore } from "zustand/vanilla";
import { LinkError } from "../link/linkError.ts";
import { decodeScenarioParam, encodeScenarioParam } from "../link/scenarioLink.ts";
import { DEFAULT_SCENARIO, type Scenario } from "../sim/scenario.ts";
import type { MonteCarloResult, RunResult } from "../sim/types.ts";
import { registerAddressPart, requestAddressWrite } from "./address.ts";

export const TABS = ["cluster", "step", "lab", "train"] as const;
export type Tab = (typeof TABS)[number];
/** The view a link without `v=` opens. */
export const DEFAULT_TAB: Tab = "cluster";

/** Seeds behind the mean and p5–p95 band shown next to the single-seed run (nothing changes it: a constant, not state). */
export const MC_SEEDS = 200;

export interface AppState {
  tab: Tab;
  scenario: Scenario;
  /** The run at the scenario's own seed, with its trace (timelines, failure log). */
  run: RunResult | null;
  /** Monte Carlo over MC_SEEDS seeds starting at the scenario's seed. */
  mc: MonteCarloResult | null;
  mcProgress: { done: number; total: number } | null;
  /** True from a scenario change until its single run is back. */
  running: boolean;
  /** An error from the worker, shown instead of stale numbers. */
  runError: string | null;
  setTab(tab: Tab): void;
  setScenario(s: Scenario): void;
}

/** `v=`: the view a link opens. */
export function parseView(v: string | undefined): Tab {
  if (v === undefined) return DEFAULT_TAB;
  const tab = TABS.find((t) => t === v);
  if (tab === undefined) {
    throw new LinkError(`The link names a view "${v.slice(0, 20)}"; the views are ${TABS.join(", ")}.`);
  }
  return tab;
}

export const appStore = createStore<AppState>()((set) => ({
  tab: DEFAULT_TAB,
  scenario: DEFAULT_SCENARIO,
  run: null,
  mc: null,
  mcProgress: null,
  running: false,
  runError: null,
  setTab: (tab) => set({ tab }),
  setScenario: (scenario) => set({ scenario }),
}));

registerAddressPart({
  keys: ["v"],
  read: (values) => appStore.setState({ tab: parseView(values.get("v")) }),
  reset: () => appStore.setState({ tab: DEFAULT_TAB }),
  write: () => {
    const { tab } = appStore.getState();
    return { v: tab === DEFAULT_TAB ? "" : tab };
  },
});
registerAddressPart({
  keys: ["s"],
  read: (values) => {
    const s = values.get("s");
    appStore.setState({ scenario: s ? decodeScenarioParam(s) : DEFAULT_SCENARIO });
  },
  reset: () => appStore.setState({ scenario: DEFAULT_SCENARIO }),
  write: () => ({ s: encodeScenarioParam(appStore.getState().scenario) }),
});
appStore.subscribe((s, prev) => {
  if (s.tab !== prev.tab) requestAddressWrite("push");
  if (s.scenario !== prev.scenario) requestAddressWrite("edit");
});

export function useAppStore<T>(selector: (s: AppState) => T): T {
  return useStore(appStore, selector);
}
