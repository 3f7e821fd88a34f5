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
import { labRunProblems } from "../gpu/labBudget.ts";
import type { CaseResult } from "../gpu/runCase.ts";
import type { Algorithm } from "../gpu/schedule.ts";
import {
  algorithmsFor,
  type BenchPlan,
  type BenchReport,
  type FaultReport,
  type LabProgress,
  MiB,
} from "../lab/lab.ts";
import {
  DEFAULT_LAB_SETTINGS,
  decodeLabParam,
  encodeLabParam,
  type FaultForm,
  type LabSettings,
  type RunForm,
  SIZES,
} from "../link/labLink.ts";
import { decodeLabResults, encodeLabResults, type LinkedRow } from "../link/labResultsLink.ts";
import { LinkError } from "../link/linkError.ts";
import { registerAddressPart, requestAddressWrite } from "./address.ts";
import {
  type GpuInfo,
  type GpuWorkerHost,
  gpuWorkerHost,
  proxy,
  spawnGpuWorker,
  wantsCpuFallback,
} from "./labClient.ts";
import { WorkerDied } from "./workerSupervisor.ts";

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
  /** The adapter of another machine that measured it (the row came with a link); null: measured here. */
  from: string | null;
}

export interface LogEntry {
  id: number;
  event: FtarEvent;
}

export type LabStatus = "starting" | "ready" | "running" | "lost" | "error";

/** Which card's job is running: its progress bar and Cancel show there. */
export type LabJob = "run" | "sweep" | "bench" | "fault";

/** A job's progress: text, and a bar of `done` / `total` (no total: a bar without an end yet). */
export interface JobProgress {
  text: string;
  done: number;
  total: number | null;
}

/** What the page says when a Kill reached the worker after the ring had finished. */
export const LATE_KILL_NOTE =
  "The ring finished before the kill arrived; use slow motion to kill mid-collective.";

export interface LabState {
  status: LabStatus;
  adapter: AdapterReport | null;
  modes: Mode[];
  maxBytesPerDevice: number;
  ceilings: Partial<Record<Mode, Ceilings>>;
  form: RunForm;
  results: LabResult[];
  job: LabJob | null;
  /** The job that ran last (its note shows on its card). */
  lastJob: LabJob | null;
  progress: JobProgress | null;
  /** Said after a job ends without an error: cancelled, or a worker replaced under it. */
  note: string | null;
  error: string | null;
  fault: FaultForm;
  faultLog: LogEntry[];
  ringBefore: number[] | null;
  ring: RingView | null;
  faultResult: FaultReport | null;
  /** The plan the fault demo on screen ran (its kill included): its link reruns it (`lfd=`). */
  faultShownFor: FaultForm | null;
  /** A link asked for the fault demo it showed: run once the adapter is ready. */
  faultWanted: boolean;
  /** Set when a Kill press could not act (the ring had finished): LATE_KILL_NOTE. */
  killNote: string | null;
  start(): Promise<void>;
  /** A link's `lfd=`: run the fault demo as soon as the lab is ready (now, if it is). */
  wantFault(wanted: boolean): void;
  /** Applies the edit, or refuses it with the problems (naming field and range) and keeps the form. */
  setForm(f: Partial<RunForm>): string[];
  setFault(f: Partial<FaultForm>): void;
  /** The table's rows that came with a link (measured elsewhere), replacing those of an earlier link. */
  setLinkedResults(rows: readonly LinkedRow[]): void;
  run(): Promise<void>;
  sweep(): Promise<void>;
  bench(plan: BenchPlan): Promise<BenchReport>;
  runFault(): Promise<void>;
  /** Kills the fault demo's victim at the next step; resolves when the worker has answered. */
  killNow(): Promise<void>;
  cancel(): void;
  retry(): Promise<void>;
}

export { SIZES };
/** Sizes the sweep button runs: quick on any adapter. */
export const SWEEP_SIZES = SIZES.filter((s) => s <= 4 * MiB);
export const SWEEP_ALGORITHMS: Algorithm[] = ["ring", "halving-doubling", "one-shot"];

function message(e: unknown): string {
  if (e instanceof WorkerDied)
    return `the lab's worker died twice under this request (${e.message}); Retry starts a fresh one`;
  return e instanceof Error ? e.message : String(e);
}

/** A run or sweep's progress as the bar shows it: whole cases, plus the current case's share. */
export function caseProgress(p: LabProgress, label: string): JobProgress {
  const within = p.total ? ` (${p.what}, ${p.done} / ${p.total})` : ` (${p.what})`;
  const share = p.total ? p.done / p.total : 0;
  return {
    text:
      p.cases > 1
        ? `${label} ${p.caseIndex} / ${p.cases}${within}`
        : `${label}: ${p.what}${p.total ? `, ${p.done} / ${p.total}` : ""}`,
    done: p.cases > 1 ? p.caseIndex - 1 + share : p.done,
    total: p.cases > 1 ? p.cases : p.total,
  };
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
    /** The fault demo's bar: steps of the current attempt's ring. */
    const faultProgress = (e: FtarEvent, ring: RingView | null): JobProgress | null => {
      const attempt = (n: number) => `Fault demo, attempt ${n + 1}`;
      switch (e.type) {
        case "ring":
          return { text: `${attempt(e.attempt)}: step 0 / ${e.steps}`, done: 0, total: e.steps };
        case "step-done":
          return {
            text: `${attempt(e.attempt)}: step ${e.step + 1} / ${ring?.steps}`,
            done: e.step + 1,
            total: ring?.steps ?? null,
          };
        case "timeout":
          return {
            text: `${attempt(e.attempt)}: step ${e.step + 1} timed out; heartbeating every device`,
            done: e.step,
            total: ring?.steps ?? null,
          };
        case "dropped":
          return { text: `Re-forming the ring without device ${e.ranks.join(", ")}`, done: 0, total: null };
        case "verified":
          return {
            text: "Fault demo: verifying the result",
            done: ring?.steps ?? 1,
            total: ring?.steps ?? 1,
          };
        default:
          return null;
      }
    };
    const onEvent = (e: FtarEvent) => {
      const s = get();
      const ring = s.ring;
      const progress = faultProgress(e, ring);
      set({
        faultLog: [...s.faultLog, { id: nextId++, event: e }],
        ...(progress && s.job === "fault" ? { progress } : {}),
      });
      // A kill by the button becomes part of the plan (victim, step), so the link reruns the
      // same fault where it happened.
      if (e.type === "killed" && e.attempt === 0 && s.job === "fault" && s.fault.killStep === null)
        set({ fault: { ...s.fault, victim: e.rank, killStep: e.step } });
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

      run: () =>
        job("run", async () => {
          const { form, maxBytesPerDevice } = get();
          const problems = labRunProblems(form, maxBytesPerDevice);
          if (problems.length > 0) throw new Error(problems.join(" "));
          const label = `${form.algorithm} on ${form.devices} devices`;
          set({ progress: { text: `${label}: starting`, done: 0, total: null } });
          const onProgress = proxy((p: LabProgress) => set({ progress: caseProgress(p, label) }));
          const r = await worker().call((api) => api.run(form, onProgress));
          const c = await worker().call((api) => api.ceilings(form.mode));
          set((s) => ({ results: [...s.results, withId(r)], ceilings: { ...s.ceilings, [form.mode]: c } }));
        }),

      sweep: () =>
        job("sweep", async () => {
          const { form } = get();
          const algorithms = SWEEP_ALGORITHMS.filter((a) => algorithmsFor(form.mode).includes(a));
          const total = algorithms.length * SWEEP_SIZES.length;
          set({ progress: { text: `Sweep: case 1 / ${total}`, done: 0, total } });
          // The rows of this sweep: a rerun on a fresh worker measures them again, so they go first.
          const mine = new Set<number>();
          const onRow = proxy((r: CaseResult) => {
            const row = withId(r);
            mine.add(row.id);
            set((s) => ({ results: [...s.results, row] }));
          });
          const onProgress = proxy((p: LabProgress) => set({ progress: caseProgress(p, "Sweep: case") }));
          const report = await worker().call((api) => {
            if (mine.size > 0) set((s) => ({ results: s.results.filter((r) => !mine.has(r.id)) }));
            mine.clear();
            return api.bench(
              {
                modes: [form.mode],
                devices: [form.devices],
                sizes: SWEEP_SIZES,
                algorithms: { [form.mode]: algorithms },
                maxBytes: {},
              },
              onRow,
              onProgress,
            );
          });
          set((s) => ({ ceilings: { ...s.ceilings, ...report.ceilings } }));
        }),

      async bench(plan) {
        let report: BenchReport | null = null;
        await job("bench", async () => {
          const onRow = proxy((r: CaseResult) => set((s) => ({ results: [...s.results, withId(r)] })));
          const onProgress = proxy((p: LabProgress) => set({ progress: caseProgress(p, "Bench: case") }));
          report = await worker().call((api) => api.bench(plan, onRow, onProgress));
        });
        if (!report) throw new Error(get().error ?? "the bench did not run");
        return report;
      },

      runFault: () =>
        job("fault", async () => {
          const f = get().fault;
          const clear = {
            faultLog: [],
            ringBefore: null,
            ring: null,
            faultResult: null,
            faultShownFor: null,
            faultWanted: false,
            killNote: null,
            progress: { text: "Fault demo: setting up", done: 0, total: null },
          };
          set(clear);
          const request = {
            mode: f.mode,
            devices: f.devices,
            bytesPerDevice: f.bytesPerDevice,
            scheduledKill: f.killStep === null ? null : { rank: f.victim, step: f.killStep },
            stepDelayMs: f.slow ? 450 : 0,
          };
          const events = proxy(onEvent);
          let first = true;
          const result = await worker().call((api) => {
            // A rerun on a fresh worker starts the log again.
            if (!first) set(clear);
            first = false;
            return api.fault(request, events);
          });
          set({ faultResult: result, faultShownFor: get().fault });
          if (result.lateKill !== null) set({ killNote: LATE_KILL_NOTE });
        }),

      async killNow() {
        const s = get();
        if (s.status !== "running" || s.job !== "fault") return;
        const answer = await worker().signal((api) => api.kill(s.fault.victim));
        // The worker had finished the demo before the press reached it: say so, never a silent no-op.
        if (answer === "finished") set({ killNote: LATE_KILL_NOTE });
      },

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

/**
 * `lab=`: the run form and the fault plan (not the results: whoever opens the link reruns them).
 * A mode this browser lacks falls back to the first it has when the adapter is known (start()).
 */
function applyLab(s: LabSettings): void {
  // A link may ask for a run past the lab's budget: say so, rather than quietly opening another.
  // setForm sets nothing when it refuses, so the plan is set only after the form was taken: a
  // refusal keeps the form and the plan on screen.
  const problems = labStore.getState().setForm(s.form);
  if (problems.length > 0)
    throw new LinkError(`The link's lab settings (lab=) were not used: ${problems.join(" ")}`);
  labStore.getState().setFault(s.fault);
}
registerAddressPart({
  keys: ["lab"],
  read: (values) => {
    const raw = values.get("lab");
    applyLab(raw ? decodeLabParam(raw) : DEFAULT_LAB_SETTINGS);
  },
  write: () => {
    const { form, fault } = labStore.getState();
    return { lab: encodeLabParam({ form, fault }) };
  },
});
/**
 * `lres=`: the results table, each row with the adapter that measured it, so a link shows what
 * its maker saw. Rows measured here stay when the address moves to an entry without them.
 */
registerAddressPart({
  keys: ["lres"],
  read: (values) => {
    const raw = values.get("lres");
    labStore.getState().setLinkedResults(raw ? decodeLabResults(raw) : []);
  },
  write: () => {
    const { results, adapter } = labStore.getState();
    const here = adapter?.label ?? "this machine";
    return { lres: encodeLabResults(results.map(({ id: _, from, ...r }) => ({ ...r, on: from ?? here }))) };
  },
});
/**
 * `lfd=1`: the fault demo was on screen, for the plan `lab=` holds; whoever opens the link sees it
 * run (the ring, the kill, the re-formed ring; its times are measured again, on their machine).
 */
registerAddressPart({
  keys: ["lfd"],
  read: (values) => {
    const raw = values.get("lfd");
    if (raw !== undefined && raw !== "1")
      throw new LinkError(`lfd= (the lab's fault demo) must be 1 or absent; got "${raw.slice(0, 40)}".`);
    labStore.getState().wantFault(raw === "1");
  },
  write: () => {
    const { fault, faultShownFor, faultWanted } = labStore.getState();
    return faultWanted || (faultShownFor !== null && faultShownFor === fault) ? { lfd: "1" } : {};
  },
});
labStore.subscribe((s, prev) => {
  if (s.faultShownFor !== prev.faultShownFor) requestAddressWrite("replace");
  // The adapter's arrival may move the forms to a mode this browser has: not an edit of anyone's.
  if (s.form !== prev.form || s.fault !== prev.fault)
    requestAddressWrite(prev.status === "starting" ? "replace" : "edit");
  // A measured row is not an edit of anyone's: the current entry takes it.
  if (s.results !== prev.results) requestAddressWrite("replace");
});

export function useLabStore<T>(selector: (s: LabState) => T): T {
  return useStore(labStore, selector);
}
