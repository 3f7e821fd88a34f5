/// <reference lib="webworker" />
/**
 * The WebGPU lab, off the main thread: the GPU work and the control plane's waiting never block
 * the page. Progress and device loss come back through comlink.proxy callbacks; `kill` and
 * `cancel` are plain calls that land between steps: the runs give the event loop a turn there
 * (yieldToMessages.ts), even on the CPU, whose steps never wait on anything. No
 * SharedArrayBuffer flag: that needs cross-origin isolation (COOP/COEP), which the page lacks.
 */
import { expose } from "comlink";
import type { FtarEvent } from "../gpu/ftar.ts";
import type { CaseRequest, CaseResult } from "../gpu/runCase.ts";
import { Lab } from "../lab/lab.ts";
import type { BenchPlan, FaultRequest, LabProgress, TrainRequest } from "../lab/labRequests.ts";
import type { TrainProgress } from "../train/session.ts";

let lab: Lab | null = null;

function current(): Lab {
  if (!lab) throw new Error("the lab is not initialised: call init() first");
  return lab;
}

const api = {
  /** Opens the GPU (or settles for the CPU) and says which; `onDeviceLost` hears later losses. */
  async init(forceCpu: boolean, onDeviceLost: (message: string) => void) {
    lab = await Lab.create(self.navigator.gpu, { forceCpu, onDeviceLost });
    return { adapter: lab.report, modes: lab.modes, maxBytesPerDevice: lab.maxBytesPerDevice };
  },
  ceilings(mode: CaseRequest["mode"]) {
    return current().ceilings(mode);
  },
  /** The supervisor's question (workerSupervisor.ts): answered whenever the loop is free. */
  ping() {
    return true;
  },
  run(req: CaseRequest, onProgress?: (p: LabProgress) => void) {
    return current().run(req, onProgress);
  },
  bench(plan: BenchPlan, onRow: (r: CaseResult) => void, onProgress?: (p: LabProgress) => void) {
    return current().bench(plan, onRow, onProgress);
  },
  fault(req: FaultRequest, onEvent: (e: FtarEvent) => void) {
    return current().fault(req, onEvent);
  },
  /** Live training; `kill` then fails a replica at the next step, `cancel` stops it. */
  train(req: TrainRequest, onProgress: (p: TrainProgress) => void) {
    return current().train(req, onProgress);
  },
  /** "finished" when the run was already over: the page says so instead of doing nothing. */
  kill(rank: number) {
    return current().kill(rank);
  },
  cancel() {
    lab?.cancel();
  },
};

export type GpuWorkerApi = typeof api;
expose(api);
