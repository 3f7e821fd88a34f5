/**
 * The tornado's state and runner. The plan (src/sim/sweep/tornado.ts) lists every scenario; the sweep's
 * worker pool (sweepPool.ts) runs them in rounds of seeds, every scenario on the same seeds
 * (common random numbers), the first round 20 seeds, then doubling for the rows whose bars are
 * not yet within the precision asked for, up to the cap. The page shows the bars after every
 * round, so they appear early and tighten. Cancel terminates the pool's workers (as a sweep's
 * cancel does). The settings, and whether it ran, are in the link as `tn=`.
 */
import { useStore } from "zustand";
import { createStore } from "zustand/vanilla";
import { LinkError } from "../link/linkError.ts";
import { decodeTornadoParam, type TornadoLinkSettings, tornadoParam } from "../link/tornadoLink.ts";
import { monteCarloCost } from "../sim/monteCarlo/budget.ts";
import type { Scenario } from "../sim/scenario/index.ts";
import { type SweepRange, sweepAxisBounds } from "../sim/sweep/index.ts";
import {
  DEFAULT_TORNADO_SETTINGS,
  planTornado,
  planTornadoSteps,
  TORNADO_AMOUNT,
  TORNADO_MAX_SEEDS,
  TORNADO_PRECISION,
  type TornadoPlan,
  type TornadoResult,
  type TornadoRowPlan,
  type TornadoSettings,
} from "../sim/sweep/tornado.ts";
import { runTornadoRounds, type TornadoExec } from "../sim/sweep/tornadoRounds.ts";
import { addressRefused, isApplyingAddress, registerAddressPart, requestAddressWrite } from "./address.ts";
import { explorerStore } from "./explorerStore.ts";
import { inSlices, startLinkRun } from "./linkRun.ts";
import { linkRunAsks } from "./linkRunCost.ts";
import { appStore } from "./store.ts";
import { ensurePool, onRestart, poolSize, terminatePool } from "./sweepPool.ts";

export interface TornadoState {
  settings: TornadoSettings;
  status: "idle" | "running" | "done" | "cancelled" | "error";
  /** Runs finished and the runs of the rounds started so far. */
  progress: { done: number; total: number; seeds: number } | null;
  plan: TornadoPlan | null;
  result: TornadoResult | null;
  elapsedMs: number | null;
  error: string | null;
  /** A link's tornado past the Monte Carlo budget, waiting for the person's yes: its cost in failures. */
  confirm: { failures: number } | null;
  /** Sets some settings, or refuses each bad one by name (and keeps the old value). */
  setSettings(patch: Partial<TornadoSettings>): string[];
  /** Runs the tornado of the current scenario; `planned` is its plan when already made (in slices, by a link). */
  run(planned?: TornadoPlan): void;
  cancel(): void;
  answer(run: boolean): void;
  /** Opens the sweep of a row's knob over the row's values (its categories) and runs it. */
  openSweep(row: TornadoRowPlan): void;
}

/** Why a setting cannot be used, naming it and its range, or null. */
export function tornadoSettingProblem(key: keyof TornadoSettings, v: number): string | null {
  const bounds = { amount: TORNADO_AMOUNT, precision: TORNADO_PRECISION, maxSeeds: TORNADO_MAX_SEEDS }[key];
  const name = { amount: "Move each knob by", precision: "Precision", maxSeeds: "Seeds at most" }[key];
  if (!Number.isFinite(v) || v < bounds.min || v > bounds.max || (key === "maxSeeds" && !Number.isInteger(v)))
    return key === "maxSeeds"
      ? `${name}: must be an integer in [${bounds.min}, ${bounds.max}].`
      : `${name}: must be in [${bounds.min * 100}, ${bounds.max * 100}] ${key === "amount" ? "%" : "points"}.`;
  return null;
}

let job: { cancelled: boolean } | null = null;
/** The scenario of the tornado on screen: the link says `run` only while it is still the scenario. */
let ranScenario: Scenario | null = null;
let runFromAddress = false;
/** The plan a link's tornado made in slices, and the amount it moved each knob by. */
let plannedAmount = Number.NaN;
let linkPlan: TornadoPlan | null = null;
/** Tornadoes started so far: a link's tornado that waited for the page does not run over one begun since. */
let tornadoesStarted = 0;

/** Failures the tornado as set now could simulate: every scenario at the seed cap (the budget's measure). */
export function tornadoCost(s: Scenario, settings: TornadoSettings): number {
  return planCost(planTornado(s, settings.amount), settings.maxSeeds);
}

function planCost(plan: TornadoPlan, maxSeeds: number): number {
  return plan.scenarios.reduce((sum, sc) => sum + monteCarloCost(sc, maxSeeds), 0);
}

export const tornadoStore = createStore<TornadoState>()((set, get) => ({
  settings: DEFAULT_TORNADO_SETTINGS,
  status: "idle",
  progress: null,
  plan: null,
  result: null,
  elapsedMs: null,
  error: null,
  confirm: null,
  setSettings: (patch) => {
    const problems: string[] = [];
    const next = { ...get().settings };
    for (const [k, v] of Object.entries(patch) as [keyof TornadoSettings, number][]) {
      const problem = tornadoSettingProblem(k, v);
      if (problem) problems.push(problem);
      else next[k] = v;
    }
    if (problems.length === 0) set({ settings: next });
    return problems;
  },
  run: (planned) => {
    tornadoesStarted++;
    if (job) job.cancelled = true;
    // One job in the pool at a time: a sweep still running would share its workers.
    if (explorerStore.getState().sweep.status === "running") explorerStore.getState().cancelSweep();
    const base = appStore.getState().scenario;
    const { settings } = get();
    const plan =
      planned?.base === base && plannedAmount === settings.amount
        ? planned
        : planTornado(base, settings.amount);
    ranScenario = base;
    const me = { cancelled: false };
    job = me;
    const started = performance.now();
    set({
      status: "running",
      plan,
      result: null,
      progress: { done: 0, total: 0, seeds: 0 },
      error: null,
      confirm: null,
      elapsedMs: null,
    });
    const workers: TornadoExec[] = ensurePool(Math.min(poolSize(), plan.scenarios.length)).map(
      (w) => (sc, from, count) => w.call((api) => api.clusterEttrRuns(sc, from, count), { onRestart }),
    );
    runTornadoRounds(plan, settings, workers, {
      cancelled: () => me.cancelled,
      onRound: (result) => {
        if (job === me) set({ result });
      },
      onProgress: (done, total, seeds) => {
        if (job === me) set({ progress: { done, total, seeds } });
      },
    }).then(
      (result) => {
        if (job !== me) return;
        job = null;
        set(
          result
            ? { status: "done", result, elapsedMs: performance.now() - started }
            : { status: "cancelled" },
        );
      },
      (e: unknown) => {
        if (job !== me) return;
        job = null;
        set({ status: "error", error: e instanceof Error ? e.message : String(e) });
      },
    );
  },
  cancel: () => {
    if (!job) return;
    job.cancelled = true;
    job = null;
    terminatePool();
    set({ status: "cancelled" });
  },
  answer: (run) => {
    if (!get().confirm) return;
    set({ confirm: null });
    if (run) runLinkTornado();
  },
  openSweep: (row) => {
    if (get().status === "running") get().cancel();
    const ex = explorerStore.getState();
    ex.setSweepOptions({ axis: row.axis });
    if (!row.categorical) {
      const xs = [row.baseX, ...row.ends.map((e) => e.x)];
      // The base may sit where the sweep cannot go (a sync checkpoint interval of 0, no rollback,
      // is swept from 5 min): the sweep opens over the part of the row it can sweep.
      const b = sweepAxisBounds(appStore.getState().scenario, row.axis);
      const range: SweepRange = {
        from: Math.max(Math.min(...xs), b?.lo ?? Number.NEGATIVE_INFINITY),
        to: Math.min(Math.max(...xs), b?.hi ?? Number.POSITIVE_INFINITY),
      };
      if (range.from < range.to) ex.setSweepRange(range);
    }
    explorerStore.getState().runSweep();
  },
}));

function runLinkTornado(): void {
  runFromAddress = true;
  try {
    tornadoStore.getState().run(linkPlan ?? undefined);
  } finally {
    runFromAddress = false;
    linkPlan = null;
  }
}

export function useTornadoStore<T>(selector: (s: TornadoState) => T): T {
  return useStore(tornadoStore, selector);
}

function linkSettingsNow(): TornadoLinkSettings {
  const { settings, status, result } = tornadoStore.getState();
  const shown = (status === "running" || status === "done") && result !== null;
  return {
    ...settings,
    run: (shown || status === "running") && ranScenario === appStore.getState().scenario,
  };
}

registerAddressPart({
  keys: ["tn"],
  read: (values) => {
    const next = decodeTornadoParam(values.get("tn"));
    // Its bars are of the link's scenario: with that refused, running it would show another's.
    if (next.run && addressRefused("s"))
      throw new LinkError(
        "The link's tornado (tn=) was not run: its scenario (s=) was refused, and the bars would be of another scenario.",
      );
    const now = linkSettingsNow();
    const { amount, precision, maxSeeds } = next;
    tornadoStore.setState({ settings: { amount, precision, maxSeeds }, confirm: null });
    const same = JSON.stringify({ ...now, run: true }) === JSON.stringify({ ...next, run: true });
    if (next.run && !(now.run && same)) {
      const base = appStore.getState().scenario;
      const { settings } = tornadoStore.getState();
      const startedBefore = tornadoesStarted;
      startLinkRun("tornado", () => {
        // It waited for the page (linkRun.ts): a person who meanwhile ran a tornado, or changed
        // the scenario or its settings, has moved on, and the link's tornado is not run over that.
        const moved =
          tornadoesStarted !== startedBefore ||
          appStore.getState().scenario !== base ||
          tornadoStore.getState().settings !== settings;
        if (moved) return;
        // Work a link starts obeys the CLI's budget and the time bound a sweep's link obeys: past
        // either (at the seed cap, the most it may run), the page asks first, saying the cost.
        inSlices(planTornadoSteps(base, settings.amount)).then((plan) => {
          // The person moved on while it planned (another scenario, other settings): nothing to run.
          if (appStore.getState().scenario !== base || tornadoStore.getState().settings !== settings) return;
          linkPlan = plan;
          plannedAmount = settings.amount;
          const failures = planCost(plan, settings.maxSeeds);
          if (linkRunAsks(failures)) tornadoStore.setState({ confirm: { failures } });
          else runLinkTornado();
        });
      });
    }
  },
  write: () => ({ tn: tornadoParam(linkSettingsNow()) }),
});
tornadoStore.subscribe((s, prev) => {
  if (s.settings !== prev.settings) requestAddressWrite(isApplyingAddress() ? "replace" : "edit");
  // Running a tornado is a history entry; its end (or cancel) updates that entry.
  else if (s.status !== prev.status)
    requestAddressWrite(s.status === "running" && !runFromAddress ? "push" : "replace");
});
