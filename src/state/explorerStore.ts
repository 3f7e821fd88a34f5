/**
 * View state of the explorer: the timeline's time window (shared by the timeline, the goodput
 * chart and the failure log, and carried in the link as `w=<start>,<end>` seconds), the selected
 * failure, the theme and the what-if sweep. Vanilla zustand, like the app store.
 */
import { useStore } from "zustand";
import { createStore } from "zustand/vanilla";
import { LinkError } from "../link/linkError.ts";
import {
  decodeLogKindsParam,
  LOG_KINDS,
  type LogKind,
  logKindsParam,
  orderedKinds,
} from "../link/logKinds.ts";
import {
  DEFAULT_SWEEP_SETTINGS,
  decodeSweepParam,
  type SweepSettings,
  sweepParam,
} from "../link/sweepLink.ts";
import {
  decodeWindowParam,
  fitWindow,
  MIN_WINDOW_SECONDS,
  type TimeWindow,
  windowParam,
} from "../link/windowParam.ts";
import type { Scenario } from "../sim/scenario/index.ts";
import {
  buildSweep,
  type SweepAxisId,
  type SweepRange,
  sweepAxisBounds,
  sweepAxisProblem,
  sweepRangeProblem,
} from "../sim/sweep/index.ts";
import type { MonteCarloResult } from "../sim/types.ts";
import { addressRefused, isApplyingAddress, registerAddressPart, requestAddressWrite } from "./address.ts";
import { startLinkRun } from "./linkRun.ts";
import { addCosts, type LinkRunCost, linkRunAsks, NO_COST, runsCost } from "./linkRunCost.ts";
import { appStore } from "./store.ts";
import { runSweepInPool, type SweepJob } from "./sweepPool.ts";
import { sweepEttrs, sweepZoomed } from "./sweepZoom.ts";

export type { TimeWindow };
export type Theme = "light" | "dark";

export interface SweepResultPoint {
  x: number;
  scenario: Scenario;
  mc: MonteCarloResult | null;
}

export interface SweepState {
  axis: SweepAxisId;
  /** The person's from..to on the axis (its unit), or null for the axis's own range. */
  range: SweepRange | null;
  points: number;
  seeds: number;
  status: "idle" | "running" | "done" | "cancelled" | "error";
  progress: { done: number; total: number } | null;
  /** The last sweep's points (filled in as they finish), its axis and the scenario it varied. */
  results: SweepResultPoint[];
  resultAxis: SweepAxisId;
  baseName: string;
  elapsedMs: number | null;
  error: string | null;
  /** A link's sweep past the Monte Carlo budget or the time bound, waiting for the person's yes: its cost. */
  confirm: LinkRunCost | null;
  /**
   * The chart's ETTR axis zoomed to the curves' span (a view of the same points; `zoom` in sw=),
   * as the person or a link chose; null: not chosen, zoomed when the curves are narrow (sweepZoom.ts).
   */
  zoom: boolean | null;
}

export interface ExplorerState {
  /** The timeline's visible span in simulated seconds; null = the whole horizon. */
  window: TimeWindow | null;
  selectedFailure: number | null;
  /** The kinds of row the failure log lists (LOG_KINDS' order); `fl=` in the link. */
  logKinds: readonly LogKind[];
  theme: Theme;
  sweep: SweepState;
  setWindow(w: TimeWindow | null): void;
  setLogKinds(kinds: readonly LogKind[]): void;
  /** Select failure i and show the time around it. */
  focusFailure(i: number, time: number, span: number): void;
  setTheme(t: Theme): void;
  setSweepOptions(o: Partial<Pick<SweepState, "axis" | "points" | "seeds">>): void;
  setSweepZoom(zoom: boolean): void;
  /** Sets from..to (null: the axis's own range), or refuses it with the problem and keeps the old one. */
  setSweepRange(range: SweepRange | null): string[];
  runSweep(): void;
  cancelSweep(): void;
  /** Run (yes) or drop (no) the sweep a link asked for past the budget. */
  answerSweep(run: boolean): void;
}

function initialTheme(): Theme {
  if (typeof document !== "undefined" && document.documentElement.dataset.theme === "dark") return "dark";
  if (typeof matchMedia === "function" && matchMedia("(prefers-color-scheme: dark)").matches) return "dark";
  return "light";
}

let job: SweepJob | null = null;
/** The scenario the shown sweep varied: the link says `run` only while it is still the scenario. */
let sweptScenario: Scenario | null = null;

export const explorerStore = createStore<ExplorerState>()((set, get) => ({
  window: null,
  selectedFailure: null,
  logKinds: [...LOG_KINDS],
  theme: initialTheme(),
  sweep: {
    axis: DEFAULT_SWEEP_SETTINGS.axis,
    range: DEFAULT_SWEEP_SETTINGS.range,
    points: DEFAULT_SWEEP_SETTINGS.points,
    seeds: DEFAULT_SWEEP_SETTINGS.seeds,
    status: "idle",
    progress: null,
    results: [],
    resultAxis: "gpus",
    baseName: "",
    elapsedMs: null,
    error: null,
    confirm: null,
    zoom: null,
  },
  setWindow: (window) => set({ window }),
  setLogKinds: (kinds) => set({ logKinds: orderedKinds(kinds) }),
  focusFailure: (i, time, span) =>
    set({ selectedFailure: i, window: [Math.max(0, time - span / 4), time + (3 * span) / 4] }),
  setTheme: (theme) => {
    document.documentElement.dataset.theme = theme;
    set({ theme });
  },
  setSweepOptions: (o) => {
    // Another axis has another unit: its range starts from the axis's own.
    const range = o.axis !== undefined && o.axis !== get().sweep.axis ? null : get().sweep.range;
    set({ sweep: { ...get().sweep, ...o, range } });
  },
  setSweepZoom: (zoom) => set({ sweep: { ...get().sweep, zoom } }),
  setSweepRange: (range) => {
    const problem = range ? sweepRangeProblem(range) : null;
    if (problem) return [problem];
    // A range past the axis's bounds is refused, not narrowed in silence (a To of 1e308).
    const bounds = range ? sweepAxisBounds(appStore.getState().scenario, get().sweep.axis) : null;
    if (range && bounds && (range.from < bounds.lo || range.to > bounds.hi))
      return [
        `Sweep from / to: must be within [${Number(bounds.lo.toPrecision(4))}, ${Number(bounds.hi.toPrecision(4))}] on this axis.`,
      ];
    set({ sweep: { ...get().sweep, range } });
    return [];
  },
  runSweep: () => {
    sweepsStarted++;
    job?.cancel();
    const base = appStore.getState().scenario;
    const { axis, points, seeds, range } = get().sweep;
    const pts = buildSweep(base, axis, points, range);
    sweptScenario = base;
    const started = performance.now();
    const patch = (p: Partial<SweepState>) => set({ sweep: { ...get().sweep, ...p } });
    patch({
      status: "running",
      progress: { done: 0, total: pts.length * seeds },
      results: pts.map((p) => ({ ...p, mc: null })),
      resultAxis: axis,
      baseName: base.name,
      elapsedMs: null,
      error: null,
      confirm: null,
    });
    const mine = runSweepInPool(pts, seeds, {
      onProgress: (done, total) => patch({ progress: { done, total } }),
      onPoint: (i, mc) => patch({ results: get().sweep.results.map((r, k) => (k === i ? { ...r, mc } : r)) }),
    });
    job = mine;
    mine.done.then(
      (res) => {
        if (job !== mine) return;
        job = null;
        patch(res ? { status: "done", elapsedMs: performance.now() - started } : { status: "cancelled" });
      },
      (e: unknown) => {
        if (job !== mine) return;
        job = null;
        patch({ status: "error", error: e instanceof Error ? e.message : String(e) });
      },
    );
  },
  cancelSweep: () => {
    const current = job;
    job = null;
    current?.cancel();
    set({ sweep: { ...get().sweep, status: "cancelled" } });
  },
  answerSweep: (run) => {
    if (!get().sweep.confirm) return;
    set({ sweep: { ...get().sweep, confirm: null } });
    if (run) runLinkSweep();
  },
}));

/** What the sweep as set now would cost: every point's runs (failures, the budget's measure, and seconds). */
export function sweepCost(): LinkRunCost {
  const { axis, points, seeds, range } = explorerStore.getState().sweep;
  return buildSweep(appStore.getState().scenario, axis, points, range).reduce(
    (sum, p) => addCosts(sum, runsCost(p.scenario, seeds)),
    NO_COST,
  );
}

/** Runs the sweep a link asked for; its start replaces the link's history entry (it is the link's). */
function runLinkSweep(): void {
  runFromAddress = true;
  try {
    explorerStore.getState().runSweep();
  } finally {
    runFromAddress = false;
  }
}

export function useExplorerStore<T>(selector: (s: ExplorerState) => T): T {
  return useStore(explorerStore, selector);
}

/**
 * Start from the whole horizon whenever the scenario changes (a new horizon makes the old window
 * meaningless), except when both come from the address (a link, Back): its `w=` is the window.
 * Returns a stop function.
 */
export function startWindowSync(): () => void {
  return appStore.subscribe((s, prev) => {
    if (s.scenario !== prev.scenario && !isApplyingAddress()) {
      explorerStore.setState({ window: null, selectedFailure: null });
    }
  });
}

/**
 * Why a sweep's From:To passes what its axis can sweep for this scenario (the sweep keeps its
 * points inside the axis's bounds), or null: a link saying 1:1e308 is refused naming the range
 * the axis spans, not swept over another range in silence. 5 % of slack leaves the rounding of
 * points to whole hosts and replicas alone.
 */
function rangeClamped(scenario: Scenario, s: SweepSettings): string | null {
  const { range } = s;
  if (!range) return null;
  const xs = buildSweep(scenario, s.axis, s.points, range).map((p) => p.x);
  const lo = xs[0];
  const hi = xs.at(-1);
  if (lo === undefined || hi === undefined) return null;
  if (range.from >= lo * 0.95 && range.to <= hi * 1.05) return null;
  const fmt = (v: number) =>
    Math.abs(v) >= 1e9 ? v.toPrecision(3) : Number(v.toPrecision(6)).toLocaleString("en-US");
  return `the range ${fmt(range.from)}:${fmt(range.to)} passes what the axis ${s.axis} can sweep for this scenario, ${fmt(lo)} to ${fmt(hi)}`;
}

/** True while a link's own sweep starts: that is the link's entry, not a new one. */
let runFromAddress = false;
/** Sweeps started so far: a link's sweep that waited for the page does not run over one begun since. */
let sweepsStarted = 0;

/** The sweep's settings as a link carries them; `run` while the shown curve is of the current scenario. */
function sweepSettingsNow(): SweepSettings {
  const { axis, points, seeds, range, status, results, zoom } = explorerStore.getState().sweep;
  const shown = (status === "running" || status === "done") && results.length > 0;
  // The zoom as drawn: a link reopens the chart as it was seen.
  const policies = results[0]?.scenario.policies ?? [];
  const zoomed = sweepZoomed(zoom, sweepEttrs(results, policies));
  return {
    axis,
    points,
    seeds,
    range,
    run: shown && sweptScenario === appStore.getState().scenario,
    zoom: zoomed,
  };
}

/**
 * Registers the time window (w=), the failure log's filter (fl=) and the sweep (sw=) and writes
 * the address on their changes; keeps the sweep's axis one the scenario has (startState.ts).
 */
export function startExplorerAddress(): void {
  registerAddressPart({
    keys: ["w"],
    read: (values) => {
      const raw = values.get("w");
      const asked = decodeWindowParam(raw);
      if (!asked) {
        explorerStore.setState({ window: null });
        return;
      }
      // Shown as the timeline draws it (the scenario part is read first): a correction is said.
      const horizon = appStore.getState().scenario.training.days * 86_400;
      const fitted = fitWindow(asked, horizon);
      const same = fitted[0] === asked[0] && fitted[1] === asked[1];
      explorerStore.setState({ window: same ? asked : fitted });
      if (!same)
        return `The link's time window w=${raw?.slice(0, 40)} was shown as ${windowParam(fitted)}: a window is at least ${MIN_WINDOW_SECONDS} s wide and inside the run's 0–${horizon.toLocaleString("en-US")} s.`;
    },
    write: () => ({ w: windowParam(explorerStore.getState().window) }),
  });
  explorerStore.subscribe((s, prev) => {
    if (s.window !== prev.window) requestAddressWrite("replace");
  });
  registerAddressPart({
    keys: ["fl"],
    read: (values) => {
      explorerStore.setState({ logKinds: decodeLogKindsParam(values.get("fl")) });
    },
    write: () => ({ fl: logKindsParam(explorerStore.getState().logKinds) }),
  });
  explorerStore.subscribe((s, prev) => {
    // A filter is a choice a person makes, as a pin is: Back undoes it.
    if (s.logKinds !== prev.logKinds) requestAddressWrite("push");
  });
  // A cause's axis exists only while the scenario lists that cause: when an edit removes it, the
  // sweep goes back to the default axis, so the picker never holds an axis the scenario lacks.
  appStore.subscribe((s, prev) => {
    if (s.scenario === prev.scenario) return;
    const sweep = explorerStore.getState().sweep;
    if (sweepAxisProblem(s.scenario, sweep.axis))
      explorerStore.setState({ sweep: { ...sweep, axis: DEFAULT_SWEEP_SETTINGS.axis, range: null } });
  });
  registerAddressPart({
    keys: ["sw"],
    read: (values) => {
      const next = decodeSweepParam(values.get("sw"));
      // The scenario part is read first (ADDRESS_PARTS, addressParts.ts): a cause's axis
      // must name a cause of the link's own scenario.
      const problem = sweepAxisProblem(appStore.getState().scenario, next.axis);
      if (problem) throw new LinkError(`The link's sweep settings (sw=) are invalid: ${problem}.`);
      const clamped = next.range ? rangeClamped(appStore.getState().scenario, next) : null;
      if (clamped) throw new LinkError(`The link's sweep settings (sw=) are invalid: ${clamped}.`);
      // Its curve is of the link's scenario: with that refused, running it would show another's.
      if (next.run && addressRefused("s"))
        throw new LinkError(
          "The link's sweep (sw=) was not run: its scenario (s=) was refused, and the curve would be of another scenario.",
        );
      const now = sweepSettingsNow();
      const { axis, points, seeds, range } = next;
      // A link that shows a chart shows it as it was drawn: zoomed with `zoom`, else 0–100 % (as
      // every link before the default zoom did); one without leaves the choice to the curves.
      const zoom = next.zoom === true ? true : next.run ? false : null;
      explorerStore.setState({
        sweep: { ...explorerStore.getState().sweep, axis, points, seeds, range, zoom },
      });
      // A link that ran its sweep shows the curve: run it once the whole address (its scenario
      // too) is applied, unless this very sweep is already on screen (Back and Forward; the zoom
      // only views its points).
      const same =
        JSON.stringify({ ...now, run: true, zoom: false }) ===
        JSON.stringify({ ...next, run: true, zoom: false });
      explorerStore.setState({ sweep: { ...explorerStore.getState().sweep, confirm: null } });
      if (next.run && !(now.run && same)) {
        const base = appStore.getState().scenario;
        const asked = explorerStore.getState().sweep;
        const startedBefore = sweepsStarted;
        startLinkRun("sweep", () => {
          // It waited for the page (linkRun.ts): a person who meanwhile ran a sweep, or changed the
          // scenario or the sweep's settings, has moved on, and the link's sweep is not run over that.
          const current = explorerStore.getState().sweep;
          const moved =
            sweepsStarted !== startedBefore ||
            appStore.getState().scenario !== base ||
            current.axis !== asked.axis ||
            current.points !== asked.points ||
            current.seeds !== asked.seeds ||
            current.range !== asked.range;
          if (moved) return;
          // Work a link starts obeys the CLI's budget and a time bound: past either, the page asks
          // first, saying the cost (a 10⁶-failure scenario swept over 50 points × 2,000 seeds started
          // 10¹¹ failures on open; 100,000 runs of the default one, a minute, started unasked).
          const cost = sweepCost();
          if (linkRunAsks(cost))
            explorerStore.setState({ sweep: { ...explorerStore.getState().sweep, confirm: cost } });
          // Building the points again to run them is a task of its own: one slice each.
          else setTimeout(runLinkSweep, 0);
        });
      }
    },
    write: () => ({ sw: sweepParam(sweepSettingsNow()) }),
  });
  explorerStore.subscribe((s, prev) => {
    const a = s.sweep;
    const b = prev.sweep;
    if (a.axis !== b.axis || a.points !== b.points || a.seeds !== b.seeds || a.range !== b.range)
      requestAddressWrite("edit");
    // A view of the same points: the link follows without a history entry of its own.
    else if (a.zoom !== b.zoom) requestAddressWrite("replace");
    // Running a sweep is a history entry; its end (or cancel) updates that entry.
    else if (a.status !== b.status)
      requestAddressWrite(a.status === "running" && !runFromAddress ? "push" : "replace");
  });
}
