/**
 * The WebGPU lab's state as the page reads it: the adapter, the forms, the measured runs, the job
 * on (its progress and how it ended) and the fault demo as it unfolds. The store that holds it is
 * src/state/labStore.ts; its jobs are labJobs.ts, the fault demo's events labFaultEvents.ts.
 */
import type { AdapterReport } from "../gpu/adapter.ts";
import type { Ceilings } from "../gpu/ceilings.ts";
import type { Mode } from "../gpu/executor.ts";
import type { FtarEvent, Hop } from "../gpu/ftar.ts";
import type { CaseResult } from "../gpu/runCase.ts";
import type { BenchPlan, BenchReport, FaultReport } from "../lab/labRequests.ts";
import type { FaultForm, RunForm } from "../link/labLink.ts";
import type { LinkedRow } from "../link/labResultsLink.ts";

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
