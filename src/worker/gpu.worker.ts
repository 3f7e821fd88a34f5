/// <reference lib="webworker" />
/**
 * The WebGPU lab, off the main thread: the GPU work and the control plane's waiting never block
 * the page. Progress and device loss come back through comlink.proxy callbacks; `kill` and
 * `cancel` are plain calls that land while a run is awaiting the GPU.
 */
import { expose } from "comlink";
import type { FtarEvent } from "../gpu/ftar.ts";
import { type BenchPlan, type FaultRequest, Lab, type TrainRequest } from "../gpu/lab.ts";
import type { CaseRequest, CaseResult } from "../gpu/runCase.ts";
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
  run(req: CaseRequest) {
    return current().run(req);
  },
  bench(plan: BenchPlan, onRow: (r: CaseResult) => void) {
    return current().bench(plan, onRow);
  },
  fault(req: FaultRequest, onEvent: (e: FtarEvent) => void) {
    return current().fault(req, onEvent);
  },
  /** Live training; `kill` then fails a replica at the next step, `cancel` stops it. */
  train(req: TrainRequest, onProgress: (p: TrainProgress) => void) {
    return current().train(req, onProgress);
  },
  kill(rank: number) {
    current().kill(rank);
  },
  cancel() {
    lab?.cancel();
  },
};

export type GpuWorkerApi = typeof api;
expose(api);
