/**
 * The step view's state: which model, the knobs, and what the worker computed for them. Vanilla
 * zustand, with the worker injected, so tests can drive it without a browser. Every change of
 * model or knobs asks the worker again; replies to superseded requests are dropped. The sweep
 * does not depend on the bucket cap, so moving the cap slider does not redo it.
 */
import { useStore } from "zustand";
import { createStore } from "zustand/vanilla";
import {
  DEFAULT_STEP_SETTINGS,
  decodeStepParam,
  encodeStepParam,
  type StepSettings,
} from "../link/stepLink.ts";
import type { Link } from "../step/collectiveCost.ts";
import {
  cadenceProblem,
  DEFAULT_OUTER_SYNC,
  type OuterSyncSettings,
  type ReplicaLink,
  type SyncCadence,
} from "../step/outerSyncSettings.ts";
import { computeForElements, presetInfo } from "../step/presetCatalog.ts";
import { NO_SLOW_RANK, type SlowRank } from "../step/slowRank.ts";
import type { ComputeConfig, StepConfig } from "../step/stepTimeline.ts";
import type { SweepResult } from "../step/sweep.ts";
import type {
  ModelProblem,
  ModelSource,
  ModelSummary,
  StepDrawing,
  StepTraceReply,
} from "../worker/stepApi.ts";
import { registerAddressPart, requestAddressWrite } from "./address.ts";
import { type StepWorker, stepWorker } from "./stepClient.ts";

export type Parallel = StepConfig["parallel"];

export interface StepState {
  source: ModelSource;
  /** What is in the paste box (kept while a preset is shown). */
  pasteText: string;
  config: StepConfig;
  /** The outer-sync panel's link between replicas and DiLoCo cadence (no worker involved). */
  outer: OuterSyncSettings;
  model: ModelSummary | null;
  result: StepDrawing | null;
  sweep: SweepResult | null;
  problem: ModelProblem | null;
  busy: boolean;
  pickPreset(id: string): void;
  setPasteText(text: string): void;
  applyPaste(): void;
  /**
   * "Pasted list" picked in the model menu: the paste box's list, or, with nothing pasted yet, the
   * empty paste itself (the link then says "Pasted list" too, and the box asks for the list).
   */
  choosePaste(): void;
  setCapMb(capMb: number): void;
  setFirstBucketMb(mb: number): void;
  setCompute(patch: Partial<ComputeConfig>): void;
  setParallel(patch: Partial<Parallel>): void;
  setLink(which: "intraLink" | "interLink", patch: Partial<Link>): void;
  setSlowRank(patch: Partial<SlowRank>): void;
  setReplicaLink(patch: Partial<ReplicaLink>): void;
  /** H or τ; refused (the problem returned, nothing changed) where τ would not be below H. */
  setCadence(patch: Partial<SyncCadence>): string[] | null;
  exportTrace(): Promise<StepTraceReply>;
}

export function createStepStore(worker: () => StepWorker) {
  let runSeq = 0;
  let sweepSeq = 0;
  // The sweep does not depend on the cap: it is redone when the model or another knob changes.
  // (Compared by identity and the config's text, never by the paste's text, which may be 15 MB.)
  let sweepFor: { source: ModelSource; config: string } | null = null;
  let pasteSeq = 0;

  const store = createStore<StepState>()((set, get) => ({
    source: DEFAULT_STEP_SETTINGS.model,
    pasteText: "",
    config: DEFAULT_STEP_SETTINGS.config,
    outer: DEFAULT_OUTER_SYNC,
    model: null,
    result: null,
    sweep: null,
    problem: null,
    busy: false,
    pickPreset: (id) =>
      set((s) => ({
        source: { kind: "preset", id },
        config: { ...s.config, compute: presetInfo(id).compute },
      })),
    setPasteText: (pasteText) => set({ pasteText }),
    applyPaste: () => void tryPaste({ kind: "paste", text: get().pasteText }),
    choosePaste: () => {
      if (get().pasteText.trim() !== "") return void tryPaste({ kind: "paste", text: get().pasteText });
      sweepFor = null;
      set({ source: { kind: "paste", text: "" }, model: null, result: null, sweep: null });
    },
    setCapMb: (capMb) => set((s) => ({ config: { ...s.config, capMb } })),
    setFirstBucketMb: (firstBucketMb) => set((s) => ({ config: { ...s.config, firstBucketMb } })),
    setCompute: (patch) =>
      set((s) => ({ config: { ...s.config, compute: { ...s.config.compute, ...patch } } })),
    setParallel: (patch) =>
      set((s) => ({ config: { ...s.config, parallel: { ...s.config.parallel, ...patch } } })),
    setLink: (which, patch) =>
      set((s) => ({
        config: {
          ...s.config,
          parallel: { ...s.config.parallel, [which]: { ...s.config.parallel[which], ...patch } },
        },
      })),
    setSlowRank: (patch) =>
      set((s) => ({
        config: { ...s.config, slowRank: { ...(s.config.slowRank ?? NO_SLOW_RANK), ...patch } },
      })),
    setReplicaLink: (patch) => set((s) => ({ outer: { ...s.outer, link: { ...s.outer.link, ...patch } } })),
    setCadence: (patch) => {
      const outer = { ...get().outer, ...patch };
      const problem = cadenceProblem(outer);
      if (problem) return [problem];
      set({ outer });
      return null;
    },
    exportTrace: () => worker().stepTrace({ model: get().source, config: get().config }),
  }));

  async function recompute(s: StepState): Promise<void> {
    const req = { model: s.source, config: s.config };
    const seq = ++runSeq;
    store.setState({ busy: true });
    try {
      const run = await worker().stepRun(req);
      if (seq !== runSeq) return;
      if (!run.ok) {
        sweepFor = null;
        store.setState({ problem: run, model: null, result: null, sweep: null, busy: false });
        return;
      }
      // Another model's sweep is not shown beside this step while its own is computed.
      const otherModel = sweepFor?.source !== req.model;
      store.setState({
        problem: null,
        model: run.model,
        result: run.result,
        busy: false,
        ...(otherModel ? { sweep: null } : {}),
      });
      const config = JSON.stringify({ ...req.config, capMb: 0 });
      if (!otherModel && sweepFor?.config === config) return;
      sweepFor = { source: req.model, config };
      const mySweep = ++sweepSeq;
      const sweep = await worker().stepSweep(req);
      if (mySweep === sweepSeq && sweep.ok) store.setState({ sweep: sweep.sweep });
    } catch (e) {
      if (seq !== runSeq) return;
      const error = `The step worker failed: ${e instanceof Error ? e.message : String(e)}`;
      store.setState({ problem: { ok: false, error, entry: null }, busy: false });
    }
  }

  /**
   * A paste applied by hand is parsed before it becomes the model: a refused one changes nothing
   * (model, results, sweep, and so the link and the history) but the message beside the paste box.
   */
  async function tryPaste(candidate: ModelSource): Promise<void> {
    const seq = ++pasteSeq;
    const from = store.getState().source;
    store.setState({ busy: true });
    const current = () => seq === pasteSeq && store.getState().source === from;
    try {
      const run = await worker().stepRun({ model: candidate, config: store.getState().config });
      if (!current()) return;
      if (!run.ok) {
        store.setState({ problem: run, busy: false });
        return;
      }
      // The pasted model gets compute times from its own size. The step just timed used the
      // previous model's: it is not drawn (for a big paste, drawing it and then its replacement
      // at once was two long tasks), and no older step or sweep is shown under the new model's
      // name. The new source and times ask the worker again (the subscription).
      sweepFor = null;
      store.setState((st) => ({
        source: candidate,
        problem: null,
        model: run.model,
        result: null,
        sweep: null,
        // A paste of a preset's very list takes that preset's times (one list, one step); any
        // other list gets times from its own size, and the view says which it got.
        config: {
          ...st.config,
          compute: run.model.preset
            ? presetInfo(run.model.preset).compute
            : computeForElements(run.model.elements),
        },
      }));
    } catch (e) {
      if (!current()) return;
      const error = `The step worker failed: ${e instanceof Error ? e.message : String(e)}`;
      store.setState({ problem: { ok: false, error, entry: null }, busy: false });
    }
  }

  store.subscribe((s, prev) => {
    if (s.source !== prev.source || s.config !== prev.config) void recompute(s);
  });
  return { store, start: () => recompute(store.getState()) };
}

let app: ReturnType<typeof createStepStore> | null = null;

/** The app's step store, created (and first computed) on first use. */
export function stepStore() {
  if (!app) {
    app = createStepStore(stepWorker);
    void app.start();
  }
  return app.store;
}

export function useStepStore<T>(selector: (s: StepState) => T): T {
  return useStore(stepStore(), selector);
}

const sameOuter = (a: OuterSyncSettings, b: OuterSyncSettings) =>
  a.link.alpha === b.link.alpha &&
  a.link.bandwidth === b.link.bandwidth &&
  a.syncEvery === b.syncEvery &&
  a.overlapSteps === b.overlapSteps;

/** What of the step state a link carries (the outer-sync panel's settings where they are not the defaults, as a link decodes them). */
export function stepSettings(s: Pick<StepState, "source" | "config" | "outer">): StepSettings {
  const base = { model: s.source, config: s.config };
  return sameOuter(s.outer, DEFAULT_OUTER_SYNC) ? base : { ...base, outer: s.outer };
}

/** `st=`: the model and the knobs (pasted lists while they fit the link budget). */
function applyStep(settings: StepSettings): void {
  const { model, config } = settings;
  stepStore().setState((s) => ({
    source: model,
    config,
    outer: settings.outer ?? DEFAULT_OUTER_SYNC,
    pasteText: model.kind === "paste" ? model.text : s.pasteText,
  }));
}
registerAddressPart({
  keys: ["st"],
  read: (values) => {
    const raw = values.get("st");
    applyStep(raw ? decodeStepParam(raw) : DEFAULT_STEP_SETTINGS);
  },
  write: () => ({ st: encodeStepParam(stepSettings(stepStore().getState())).param }),
});
stepStore().subscribe((s, prev) => {
  if (s.source !== prev.source || s.config !== prev.config || s.outer !== prev.outer)
    requestAddressWrite("edit");
});
