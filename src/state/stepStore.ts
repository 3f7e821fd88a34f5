/**
 * The step view's state: which model, the knobs, and what the worker computed for them. Vanilla
 * zustand, with the worker injected, so tests can drive it without a browser. Every change of
 * model or knobs asks the worker again; replies to superseded requests are dropped. The sweep
 * does not depend on the bucket cap, so moving the cap slider does not redo it.
 */
import { useStore } from "zustand";
import { createStore } from "zustand/vanilla";
import type { Link } from "../step/collectiveCost.ts";
import { DEFAULT_STEP_CONFIG, presetInfo } from "../step/presetCatalog.ts";
import type { ComputeConfig, StepConfig, StepResult } from "../step/stepTimeline.ts";
import type { SweepResult } from "../step/sweep.ts";
import type { ModelInfo, ModelProblem, ModelSource, StepTraceReply } from "../worker/stepApi.ts";
import { type StepWorker, stepWorker } from "./stepClient.ts";

export type Parallel = StepConfig["parallel"];

export interface StepState {
  source: ModelSource;
  /** What is in the paste box (kept while a preset is shown). */
  pasteText: string;
  config: StepConfig;
  model: ModelInfo | null;
  result: StepResult | null;
  sweep: SweepResult | null;
  problem: ModelProblem | null;
  busy: boolean;
  pickPreset(id: string): void;
  setPasteText(text: string): void;
  applyPaste(): void;
  setCapMb(capMb: number): void;
  setFirstBucketMb(mb: number): void;
  setCompute(patch: Partial<ComputeConfig>): void;
  setParallel(patch: Partial<Parallel>): void;
  setLink(which: "intraLink" | "interLink", patch: Partial<Link>): void;
  exportTrace(): Promise<StepTraceReply>;
}

const INITIAL_PRESET = "resnet50";

export function createStepStore(worker: () => StepWorker) {
  let runSeq = 0;
  let sweepSeq = 0;
  let sweepKey = "";

  const store = createStore<StepState>()((set, get) => ({
    source: { kind: "preset", id: INITIAL_PRESET },
    pasteText: "",
    config: { ...DEFAULT_STEP_CONFIG, compute: presetInfo(INITIAL_PRESET).compute },
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
    applyPaste: () => set((s) => ({ source: { kind: "paste", text: s.pasteText } })),
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
        sweepKey = "";
        store.setState({ problem: run, model: null, result: null, sweep: null, busy: false });
        return;
      }
      store.setState({ problem: null, model: run.model, result: run.result, busy: false });
      const key = JSON.stringify({ ...req, config: { ...req.config, capMb: 0 } });
      if (key === sweepKey) return;
      sweepKey = key;
      const mySweep = ++sweepSeq;
      const sweep = await worker().stepSweep(req);
      if (mySweep === sweepSeq && sweep.ok) store.setState({ sweep: sweep.sweep });
    } catch (e) {
      if (seq !== runSeq) return;
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
