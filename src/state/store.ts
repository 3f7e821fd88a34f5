/**
 * The app's store: the scenario being explored, the view, and what the worker computed for it.
 * Vanilla zustand (no React in here), so tests can drive it directly; components subscribe
 * through useAppStore. The store never simulates: it asks the worker (see clusterRunner.ts).
 */
import { useStore } from "zustand";
import { createStore } from "zustand/vanilla";
import { DEFAULT_SCENARIO, type Scenario } from "../sim/scenario.ts";
import type { MonteCarloResult, RunResult } from "../sim/types.ts";
import { readHash, writeHash } from "./hash.ts";
import { decodeScenarioLink, encodeScenarioParam, LinkError } from "./shareLink.ts";

export const TABS = ["cluster", "step", "lab"] as const;
export type Tab = (typeof TABS)[number];

/** Seeds behind the mean and p5–p95 band shown next to the single-seed run. */
export const DEFAULT_MC_SEEDS = 200;

export interface AppState {
  tab: Tab;
  scenario: Scenario;
  /** Why the link the page was opened with could not be used (the defaults are shown instead). */
  linkError: string | null;
  /** The run at the scenario's own seed, with its trace (timelines, failure log). */
  run: RunResult | null;
  /** Monte Carlo over mcSeeds seeds starting at the scenario's seed. */
  mc: MonteCarloResult | null;
  mcSeeds: number;
  mcProgress: { done: number; total: number } | null;
  /** True from a scenario change until its single run is back. */
  running: boolean;
  /** An error from the worker, shown instead of stale numbers. */
  runError: string | null;
  setTab(tab: Tab): void;
  setScenario(s: Scenario): void;
  dismissLinkError(): void;
}

/** What a URL hash asks for: its scenario (or the defaults, with the reason) and its view. */
export function stateFromHash(hash: string): Pick<AppState, "tab" | "scenario" | "linkError"> {
  const params = readHash(hash);
  const v = params.get("v");
  const tab: Tab = TABS.find((t) => t === v) ?? "cluster";
  try {
    return { tab, scenario: decodeScenarioLink(hash) ?? DEFAULT_SCENARIO, linkError: null };
  } catch (e) {
    const message = e instanceof LinkError ? e.message : `The link could not be read: ${String(e)}`;
    return { tab, scenario: DEFAULT_SCENARIO, linkError: message };
  }
}

/** The hash that reproduces this state: the scenario and, off the default view, the view. */
export function hashFor(state: Pick<AppState, "tab" | "scenario">, current = ""): string {
  const params = readHash(current);
  params.set("s", encodeScenarioParam(state.scenario));
  if (state.tab === "cluster") params.delete("v");
  else params.set("v", state.tab);
  return writeHash(params);
}

export const appStore = createStore<AppState>()((set) => ({
  ...stateFromHash(typeof location === "undefined" ? "" : location.hash),
  run: null,
  mc: null,
  mcSeeds: DEFAULT_MC_SEEDS,
  mcProgress: null,
  running: false,
  runError: null,
  setTab: (tab) => set({ tab }),
  setScenario: (scenario) => set({ scenario }),
  dismissLinkError: () => set({ linkError: null }),
}));

export function useAppStore<T>(selector: (s: AppState) => T): T {
  return useStore(appStore, selector);
}
