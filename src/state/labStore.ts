/**
 * The WebGPU lab's state: what the adapter is, the form, the measured runs, and the fault demo
 * as it unfolds. Vanilla zustand with the worker injected (tests and the bench hook drive it too).
 */
import { useStore } from "zustand";
import { createStore } from "zustand/vanilla";
import type { AdapterReport } from "../gpu/adapter.ts";
import type { Ceilings } from "../gpu/ceilings.ts";
import type { Mode } from "../gpu/executor.ts";
import type { FtarEvent, Hop } from "../gpu/ftar.ts";
import { algorithmsFor, type BenchPlan, type BenchReport, type FaultReport, MiB } from "../gpu/lab.ts";
import { labRunProblems } from "../gpu/labBudget.ts";
import type { CaseResult } from "../gpu/runCase.ts";
import type { Algorithm } from "../gpu/schedule.ts";
import {
  DEFAULT_LAB_SETTINGS,
  decodeLabParam,
  encodeLabParam,
  type FaultForm,
  type LabSettings,
  type RunForm,
  SIZES,
} from "../link/labLink.ts";
import { LinkError } from "../link/linkError.ts";
import { registerAddressPart, requestAddressWrite } from "./address.ts";
import { type LabWorker, proxy, startLabWorker, wantsCpuFallback } from "./labClient.ts";

export type { FaultForm, RunForm };

export interface RingView {
  attempt: number;
  ring: number[];
  steps: number;
  step: number | null;
  phase: string | null;
  hops: Hop[];
  dead: number[];
  status: "running" | "stalled" | "re-forming" | "done";
}

/** A run as the table lists it: the worker's result and a stable row id. */
export interface LabResult extends CaseResult {
  id: number;
}

export interface LogEntry {
  id: number;
  event: FtarEvent;
}

export type LabStatus = "starting" | "ready" | "running" | "lost" | "error";

export interface LabState {
  status: LabStatus;
  adapter: AdapterReport | null;
  modes: Mode[];
  maxBytesPerDevice: number;
  ceilings: Partial<Record<Mode, Ceilings>>;
  form: RunForm;
  results: LabResult[];
  progress: string | null;
  error: string | null;
  fault: FaultForm;
  faultLog: LogEntry[];
  ringBefore: number[] | null;
  ring: RingView | null;
  faultResult: FaultReport | null;
  start(): Promise<void>;
  /** Applies the edit, or refuses it with the problems (naming field and range) and keeps the form. */
  setForm(f: Partial<RunForm>): string[];
  setFault(f: Partial<FaultForm>): void;
  run(): Promise<void>;
  sweep(): Promise<void>;
  bench(plan: BenchPlan): Promise<BenchReport>;
  runFault(): Promise<void>;
  killNow(): void;
  cancel(): void;
  retry(): Promise<void>;
}

export { SIZES };
/** Sizes the sweep button runs: quick on any adapter. */
export const SWEEP_SIZES = SIZES.filter((s) => s <= 4 * MiB);
export const SWEEP_ALGORITHMS: Algorithm[] = ["ring", "halving-doubling", "one-shot"];

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export function createLabStore(
  spawn: () => LabWorker = startLabWorker,
  wantsCpu: () => boolean = wantsCpuFallback,
) {
  let worker: LabWorker | null = null;
  let nextId = 0;
  const withId = (r: CaseResult): LabResult => ({ ...r, id: nextId++ });
  const store = createStore<LabState>()((set, get) => {
    const api = () => {
      if (!worker) throw new Error("the lab worker is not running");
      return worker.api;
    };
    /** Runs a job; a failure after the device was lost is reported as the loss, not the symptom. */
    const job = async (f: () => Promise<void>) => {
      if (get().status !== "ready") return;
      set({ status: "running", error: null });
      try {
        await f();
        if (get().status === "running") set({ status: "ready" });
      } catch (e) {
        if (get().status !== "lost") set({ status: "error", error: message(e) });
      } finally {
        set({ progress: null });
      }
    };
    const onEvent = (e: FtarEvent) => {
      const s = get();
      const ring = s.ring;
      set({ faultLog: [...s.faultLog, { id: nextId++, event: e }] });
      switch (e.type) {
        case "ring":
          set({
            ringBefore: s.ringBefore ?? e.ring,
            ring: {
              attempt: e.attempt,
              ring: e.ring,
              steps: e.steps,
              step: null,
              phase: null,
              hops: [],
              dead: ring?.dead ?? [],
              status: "running",
            },
          });
          break;
        case "step":
          if (ring) set({ ring: { ...ring, step: e.step, phase: e.phase, hops: e.hops, status: "running" } });
          break;
        case "killed":
          if (ring) set({ ring: { ...ring, dead: [...ring.dead, e.rank] } });
          break;
        case "timeout":
          if (ring) set({ ring: { ...ring, status: "stalled" } });
          break;
        case "dropped":
          if (ring) set({ ring: { ...ring, hops: [], status: "re-forming" } });
          break;
        case "verified":
          if (ring) set({ ring: { ...ring, hops: [], status: "done" } });
          break;
        case "step-done":
          break;
      }
    };
    return {
      status: "starting",
      adapter: null,
      modes: [],
      maxBytesPerDevice: 0,
      ceilings: {},
      form: DEFAULT_LAB_SETTINGS.form,
      results: [],
      progress: null,
      error: null,
      fault: DEFAULT_LAB_SETTINGS.fault,
      faultLog: [],
      ringBefore: null,
      ring: null,
      faultResult: null,

      async start() {
        worker?.terminate();
        worker = spawn();
        set({ status: "starting", error: null });
        try {
          const onLost = proxy((m: string) =>
            set({ status: "lost", error: `The GPU device was lost (${m}).` }),
          );
          const info = await worker.api.init(wantsCpu(), onLost);
          const mode = info.modes[0] ?? "cpu";
          set((s) => ({
            status: "ready",
            adapter: info.adapter,
            modes: info.modes,
            maxBytesPerDevice: info.maxBytesPerDevice,
            form: info.modes.includes(s.form.mode) ? s.form : { ...s.form, mode },
            fault: info.modes.includes(s.fault.mode) ? s.fault : { ...s.fault, mode },
          }));
        } catch (e) {
          set({ status: "error", error: message(e) });
        }
      },

      setForm(f) {
        const form = { ...get().form, ...f };
        if (!algorithmsFor(form.mode).includes(form.algorithm)) form.algorithm = "ring";
        const problems = labRunProblems(form, get().maxBytesPerDevice);
        if (problems.length === 0) set({ form });
        return problems;
      },

      setFault(f) {
        const fault = { ...get().fault, ...f };
        fault.victim = Math.min(fault.victim, fault.devices - 1);
        set({ fault });
      },

      run: () =>
        job(async () => {
          const { form, maxBytesPerDevice } = get();
          const problems = labRunProblems(form, maxBytesPerDevice);
          if (problems.length > 0) throw new Error(problems.join(" "));
          set({ progress: `Running ${form.algorithm} on ${form.devices} devices…` });
          const r = await api().run(form);
          const c = await api().ceilings(form.mode);
          set((s) => ({ results: [...s.results, withId(r)], ceilings: { ...s.ceilings, [form.mode]: c } }));
        }),

      sweep: () =>
        job(async () => {
          const { form } = get();
          const algorithms = SWEEP_ALGORITHMS.filter((a) => algorithmsFor(form.mode).includes(a));
          const total = algorithms.length * SWEEP_SIZES.length;
          let done = 0;
          set({ progress: `Sweep: 0 / ${total}` });
          const report = await api().bench(
            {
              modes: [form.mode],
              devices: [form.devices],
              sizes: SWEEP_SIZES,
              algorithms: { [form.mode]: algorithms },
              maxBytes: {},
            },
            proxy((r: CaseResult) => {
              done++;
              set((s) => ({ results: [...s.results, withId(r)], progress: `Sweep: ${done} / ${total}` }));
            }),
          );
          set((s) => ({ ceilings: { ...s.ceilings, ...report.ceilings } }));
        }),

      async bench(plan) {
        let report: BenchReport | null = null;
        await job(async () => {
          report = await api().bench(
            plan,
            proxy((r: CaseResult) => set((s) => ({ results: [...s.results, withId(r)] }))),
          );
        });
        if (!report) throw new Error(get().error ?? "the bench did not run");
        return report;
      },

      runFault: () =>
        job(async () => {
          const f = get().fault;
          set({
            faultLog: [],
            ringBefore: null,
            ring: null,
            faultResult: null,
            progress: "Fault demo running…",
          });
          const result = await api().fault(
            {
              mode: f.mode,
              devices: f.devices,
              bytesPerDevice: f.bytesPerDevice,
              scheduledKill: f.killStep === null ? null : { rank: f.victim, step: f.killStep },
              stepDelayMs: f.slow ? 450 : 0,
            },
            proxy(onEvent),
          );
          set({ faultResult: result });
        }),

      killNow() {
        if (worker && get().status === "running") void worker.api.kill(get().fault.victim);
      },

      cancel() {
        if (worker) void worker.api.cancel();
      },

      async retry() {
        await get().start();
      },
    };
  });
  return store;
}

export const labStore = createLabStore();

/**
 * `lab=`: the run form and the fault plan (not the results: whoever opens the link reruns them).
 * A mode this browser lacks falls back to the first it has when the adapter is known (start()).
 */
function applyLab(s: LabSettings): void {
  const problems = labStore.getState().setForm(s.form);
  labStore.getState().setFault(s.fault);
  // A link may ask for a run past the lab's budget: say so, rather than quietly opening another.
  if (problems.length > 0)
    throw new LinkError(`The link's lab settings were not used: ${problems.join(" ")}`);
}
registerAddressPart({
  keys: ["lab"],
  read: (values) => {
    const raw = values.get("lab");
    applyLab(raw ? decodeLabParam(raw) : DEFAULT_LAB_SETTINGS);
  },
  reset: () => applyLab(DEFAULT_LAB_SETTINGS),
  write: () => {
    const { form, fault } = labStore.getState();
    return { lab: encodeLabParam({ form, fault }) };
  },
});
labStore.subscribe((s, prev) => {
  // The adapter's arrival may move the forms to a mode this browser has: not an edit of anyone's.
  if (s.form !== prev.form || s.fault !== prev.fault)
    requestAddressWrite(prev.status === "starting" ? "replace" : "edit");
});

export function useLabStore<T>(selector: (s: LabState) => T): T {
  return useStore(labStore, selector);
}
