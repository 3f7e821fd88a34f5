/**
 * The WebGPU lab's store: the state of labState.ts, with the worker injected (tests and the bench
 * hook drive it too). This file starts and restarts the worker and runs each job (labJobs.ts)
 * through one runner that says how it ended; the address reads and writes it (labAddress.ts).
 */
import { useStore } from "zustand";
import { createStore } from "zustand/vanilla";
import { labRunProblems } from "../gpu/labBudget.ts";
import type { CaseResult } from "../gpu/runCase.ts";
import { algorithmsFor } from "../lab/labRequests.ts";
import { DEFAULT_LAB_SETTINGS } from "../link/labLink.ts";
import { registerLabAddress } from "./labAddress.ts";
import {
  type GpuInfo,
  type GpuWorkerHost,
  gpuWorkerHost,
  spawnGpuWorker,
  wantsCpuFallback,
} from "./labClient.ts";
import { faultJobs, type LabJobContext, measureJobs } from "./labJobs.ts";
import type { LabJob, LabResult, LabState } from "./labState.ts";
import { WorkerDied } from "./workerSupervisor.ts";

function message(e: unknown): string {
  if (e instanceof WorkerDied)
    return `the lab's worker died twice under this request (${e.message}); Retry starts a fresh one`;
  return e instanceof Error ? e.message : String(e);
}

/** What identifies one measurement (two runs never agree on all of these). */
function measurement(r: CaseResult): string {
  return [r.mode, r.algorithm, r.devices, r.bytesPerDevice, r.seconds, r.algbw, r.reps, r.submits].join("|");
}

export function createLabStore(
  spawn: () => Worker = () => spawnGpuWorker("gpu-lab"),
  wantsCpu: () => boolean = wantsCpuFallback,
  silenceMs?: number,
) {
  let host: GpuWorkerHost | null = null;
  let nextId = 0;
  /** The user pressed Cancel during the current job: its end is a cancel, not an error. */
  let cancelled = false;
  const withId = (r: CaseResult, from: string | null = null): LabResult => ({ ...r, id: nextId++, from });
  const store = createStore<LabState>()((set, get) => {
    const worker = (): GpuWorkerHost => {
      if (!host) throw new Error("the lab worker is not running");
      return host;
    };
    /**
     * Runs a job; a failure after the device was lost is reported as the loss, not the symptom,
     * and one after a Cancel as the cancel.
     */
    const job = async (kind: LabJob, f: () => Promise<void>) => {
      if (get().status !== "ready") return;
      cancelled = false;
      set({ status: "running", job: kind, lastJob: kind, error: null, note: null, progress: null });
      try {
        await f();
        if (get().status === "running")
          set({ status: "ready", ...(cancelled ? { note: "Cancelled." } : {}) });
      } catch (e) {
        if (get().status === "lost") return;
        if (cancelled) set({ status: "ready", note: "Cancelled." });
        else set({ status: "error", error: message(e) });
      } finally {
        set({ progress: null, job: null });
      }
    };
    const context: LabJobContext = { set, get, worker, withId, nextId: () => nextId++, job };
    const onReady = (info: GpuInfo) => {
      const mode = info.modes[0] ?? "cpu";
      set((s) => ({
        adapter: info.adapter,
        modes: info.modes,
        maxBytesPerDevice: info.maxBytesPerDevice,
        form: info.modes.includes(s.form.mode) ? s.form : { ...s.form, mode },
        fault: info.modes.includes(s.fault.mode) ? s.fault : { ...s.fault, mode },
      }));
    };
    const onLost = (m: string) => set({ status: "lost", error: `The GPU device was lost (${m}).` });
    /** Said in the lab too, next to the job that was rerun (the page-wide notice may be far). */
    const onRestart = (reason: string) =>
      set({ note: `The lab's worker died (${reason}); a new one was started and this request run again.` });
    return {
      status: "starting",
      adapter: null,
      modes: [],
      maxBytesPerDevice: 0,
      ceilings: {},
      form: DEFAULT_LAB_SETTINGS.form,
      results: [],
      job: null,
      lastJob: null,
      progress: null,
      note: null,
      error: null,
      fault: DEFAULT_LAB_SETTINGS.fault,
      faultLog: [],
      ringBefore: null,
      ring: null,
      faultResult: null,
      faultShownFor: null,
      faultWanted: false,
      killNote: null,

      wantFault(wanted) {
        set({ faultWanted: wanted });
        if (wanted && get().status === "ready") void get().runFault();
      },

      async start() {
        host?.terminate();
        host = gpuWorkerHost("WebGPU lab", { onReady, onLost, onRestart }, spawn, wantsCpu, silenceMs);
        set({ status: "starting", error: null, note: null });
        try {
          await host.open();
          set({ status: "ready" });
          if (get().faultWanted) void get().runFault();
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

      setLinkedResults(rows) {
        set((s) => {
          const here = s.results.filter((r) => r.from === null);
          // Back or Forward to an entry of this session brings rows measured here: not twice.
          const mine = new Set(here.map(measurement));
          const linked = rows.filter((r) => !mine.has(measurement(r))).map(({ on, ...r }) => withId(r, on));
          return { results: [...linked, ...here] };
        });
      },

      setFault(f) {
        const fault = { ...get().fault, ...f };
        fault.victim = Math.min(fault.victim, fault.devices - 1);
        set({ fault });
      },

      ...measureJobs(context),
      ...faultJobs(context),

      cancel() {
        if (get().status !== "running") return;
        cancelled = true;
        set((s) => ({ progress: s.progress && { ...s.progress, text: `${s.progress.text} — cancelling` } }));
        void host?.signal((api) => api.cancel());
      },

      async retry() {
        await get().start();
      },
    };
  });
  return store;
}

export const labStore = createLabStore();
registerLabAddress(labStore);

export function useLabStore<T>(selector: (s: LabState) => T): T {
  return useStore(labStore, selector);
}
