/**
 * The lab's jobs as the store runs them on its worker: one verified run, the sweep of the run
 * card, a bench (the bench hook's), and the fault demo with its Kill. Each job is started through
 * the store's job runner (labStore.ts), which says how it ended.
 */
import type { StoreApi } from "zustand/vanilla";
import type { FtarEvent } from "../gpu/ftar.ts";
import { labRunProblems } from "../gpu/labBudget.ts";
import type { CaseResult } from "../gpu/runCase.ts";
import type { Algorithm } from "../gpu/schedule.ts";
import { algorithmsFor, type BenchReport, type LabProgress, MiB } from "../lab/labRequests.ts";
import { SIZES } from "../link/labLink.ts";
import { type GpuWorkerHost, proxy } from "./labClient.ts";
import { faultProgress, ringAfter } from "./labFaultEvents.ts";
import { type JobProgress, LATE_KILL_NOTE, type LabJob, type LabResult, type LabState } from "./labState.ts";

/** Sizes the sweep button runs: quick on any adapter. */
const SWEEP_SIZES = SIZES.filter((s) => s <= 4 * MiB);
const SWEEP_ALGORITHMS: Algorithm[] = ["ring", "halving-doubling", "one-shot"];

/** What a job needs of the store that runs it. */
export interface LabJobContext {
  set: StoreApi<LabState>["setState"];
  get: StoreApi<LabState>["getState"];
  /** The running worker; throws when there is none. */
  worker(): GpuWorkerHost;
  /** A row with a fresh id (from: the adapter of the machine that measured it; null: here). */
  withId(r: CaseResult, from?: string | null): LabResult;
  /** A fresh id for a fault-log entry. */
  nextId(): number;
  /** Runs a job of this kind (labStore.ts): its status, progress, and how it ended. */
  job(kind: LabJob, f: () => Promise<void>): Promise<void>;
}

/** A run or sweep's progress as the bar shows it: whole cases, plus the current case's share. */
function caseProgress(p: LabProgress, label: string): JobProgress {
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

/** The run card's jobs: one verified run, the sweep, and a bench plan's cases. */
export function measureJobs({
  set,
  get,
  worker,
  withId,
  job,
}: LabJobContext): Pick<LabState, "run" | "sweep" | "bench"> {
  return {
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
  };
}

/** The fault demo: run it (its events drawn as they come) and Kill its victim mid-collective. */
export function faultJobs({
  set,
  get,
  worker,
  nextId,
  job,
}: LabJobContext): Pick<LabState, "runFault" | "killNow"> {
  const onEvent = (e: FtarEvent) => {
    const s = get();
    const progress = faultProgress(e, s.ring);
    set({
      faultLog: [...s.faultLog, { id: nextId(), event: e }],
      ...(progress && s.job === "fault" ? { progress } : {}),
    });
    // A kill by the button becomes part of the plan (victim, step), so the link reruns the
    // same fault where it happened.
    if (e.type === "killed" && e.attempt === 0 && s.job === "fault" && s.fault.killStep === null)
      set({ fault: { ...s.fault, victim: e.rank, killStep: e.step } });
    const ring = ringAfter(e, s.ring);
    if (e.type === "ring") set({ ringBefore: s.ringBefore ?? e.ring, ring });
    else if (ring !== s.ring) set({ ring });
  };
  return {
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
  };
}
