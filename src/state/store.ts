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
import type { RecoveryIndex } from "../sim/recovery/recoveryIndex.ts";
import { DEFAULT_SCENARIO, type Scenario } from "../sim/scenario/index.ts";
import type { MonteCarloResult, RunResult } from "../sim/types.ts";
import { registerAddressPart, requestAddressWrite } from "./address.ts";
import { hideParam, parseHideParam } from "./hideFlags.ts";
import { CHAPTER_IDS, type ChapterId } from "./storyChapters.ts";

export const TABS = ["story", "cluster", "step", "lab", "train", "papers"] as const;
export type Tab = (typeof TABS)[number];
/** The view a bare address opens. */
export const DEFAULT_TAB: Tab = "story";
/** The view a link from before the story (a scenario, no `v=`) opens, as it always did. */
export const LEGACY_TAB: Tab = "cluster";

/** Seeds behind the mean and p5–p95 band shown next to the single-seed run (nothing changes it: a constant, not state). */
export const MC_SEEDS = 200;

export interface AppState {
  tab: Tab;
  scenario: Scenario;
  /** The story's chapter on screen (kept while another view is open). */
  chapter: ChapterId;
  /** Controls a classroom link hides (`hide=`), by their `data-control` id. */
  hidden: readonly string[];
  /**
   * The run at the scenario's own seed, with its trace (timelines, failure log) and the trace's
   * recovery lookups, built by the worker beside it (the Cluster view primes them: Explorer.tsx).
   */
  run: (RunResult & { recoveryIndex?: RecoveryIndex }) | null;
  /**
   * The finished Monte Carlo, over the seeds from the scenario's own: as many as the precision
   * needed, or the cap (mcStore.ts; clusterRunner.ts streams it on the worker pool).
   */
  mc: MonteCarloResult | null;
  mcProgress: { done: number; total: number } | null;
  /** The Monte Carlo of the seeds done so far, while it runs (the band fills in as it goes). */
  mcSoFar: MonteCarloResult | null;
  /** True from a scenario change until its single run is back. */
  running: boolean;
  /** An error from the worker, shown instead of stale numbers. */
  runError: string | null;
  setTab(tab: Tab): void;
  setChapter(chapter: ChapterId): void;
  setScenario(s: Scenario): void;
}

/** `v=`: the view a link opens (a link without one: see the `s` part below). */
export function parseView(v: string | undefined): Tab {
  if (v === undefined) return DEFAULT_TAB;
  // Case is not meaning: `v=CLUSTER` opens the Cluster view (viewNote says so), not the Story.
  const tab = TABS.find((t) => t === v.toLowerCase());
  if (tab === undefined) {
    throw new LinkError(`The link names a view "${v.slice(0, 20)}"; the views are ${TABS.join(", ")}.`);
  }
  return tab;
}

export const appStore = createStore<AppState>()((set) => ({
  tab: DEFAULT_TAB,
  scenario: DEFAULT_SCENARIO,
  chapter: CHAPTER_IDS[0],
  hidden: [],
  run: null,
  mc: null,
  mcProgress: null,
  mcSoFar: null,
  running: false,
  runError: null,
  setTab: (tab) => set({ tab }),
  setChapter: (chapter) => set({ chapter }),
  setScenario: (scenario) => set({ scenario }),
}));

/** `ch=`: the story's chapter, by id (ids, so a chapter added later never changes an old link). */
export function parseChapter(v: string | undefined): ChapterId {
  if (v === undefined) return CHAPTER_IDS[0];
  const chapter = CHAPTER_IDS.find((c) => c === v);
  if (chapter === undefined) {
    throw new LinkError(
      `The link names a chapter "${v.slice(0, 30)}"; the chapters are ${CHAPTER_IDS.join(", ")}.`,
    );
  }
  return chapter;
}

/** Whether the address last read named its view: a scenario without one is an old Cluster link. */
let viewNamed = false;

/** Registers the view, scenario, chapter and hide= parts and writes the address on their changes (startState.ts). */
export function startAppAddress(): void {
  registerAddressPart({
    keys: ["v"],
    read: (values) => {
      const v = values.get("v");
      const tab = parseView(v);
      viewNamed = values.has("v");
      appStore.setState({ tab });
      if (v !== undefined && v !== tab) return `The link's v=${v.slice(0, 20)} was read as v=${tab}.`;
    },
    // Always named, the default view too, so a reload never lands on another view.
    write: () => ({ v: appStore.getState().tab }),
  });
  registerAddressPart({
    keys: ["s"],
    read: (values) => {
      const s = values.get("s");
      // Read after `v`: a link that carries a scenario and no view opens what it opened before the
      // story, the view being what `v` (absent) means, even when the scenario itself is refused.
      if (s !== undefined && !viewNamed) appStore.setState({ tab: LEGACY_TAB });
      appStore.setState({ scenario: s ? decodeScenarioParam(s) : DEFAULT_SCENARIO });
      if (s === "") return "The link's s= is empty: it opens the default scenario.";
    },
    write: () => ({ s: encodeScenarioParam(appStore.getState().scenario) }),
  });
  registerAddressPart({
    keys: ["ch"],
    read: (values) => {
      appStore.setState({ chapter: parseChapter(values.get("ch")) });
    },
    write: () => {
      const { tab, chapter } = appStore.getState();
      return { ch: tab === "story" ? chapter : "" };
    },
  });
  registerAddressPart({
    keys: ["hide"],
    read: (values) => {
      appStore.setState({ hidden: parseHideParam(values.get("hide")) });
    },
    write: () => ({ hide: hideParam(appStore.getState().hidden) }),
  });
  appStore.subscribe((s, prev) => {
    // A view and a chapter are history entries: Back returns to the previous one.
    if (s.tab !== prev.tab || s.chapter !== prev.chapter || s.hidden !== prev.hidden)
      requestAddressWrite("push");
    if (s.scenario !== prev.scenario) requestAddressWrite("edit");
  });
}

export function useAppStore<T>(selector: (s: AppState) => T): T {
  return useStore(appStore, selector);
}
