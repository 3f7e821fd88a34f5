/**
 * The app's store: the scenario being explored, the view, and what the worker computed for it.
 * Vanilla zustand (no React in here), so tests can drive it directly; components subscribe
 * through useAppStore.
 */
import { useStore } from "zustand";
import { createStore } from "zustand/vanilla";
import { DEFAULT_SCENARIO, type Scenario } from "../sim/scenario.ts";
import { readHash } from "./hash.ts";
import { decodeScenarioLink, LinkError } from "./shareLink.ts";

export const TABS = ["cluster", "step", "lab"] as const;
export type Tab = (typeof TABS)[number];

export interface AppState {
  tab: Tab;
  scenario: Scenario;
  /** Why the link the page was opened with could not be used (the defaults are shown instead). */
  linkError: string | null;
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

export const appStore = createStore<AppState>()((set) => ({
  ...stateFromHash(typeof location === "undefined" ? "" : location.hash),
  setTab: (tab) => set({ tab }),
  setScenario: (scenario) => set({ scenario }),
  dismissLinkError: () => set({ linkError: null }),
}));

export function useAppStore<T>(selector: (s: AppState) => T): T {
  return useStore(appStore, selector);
}
