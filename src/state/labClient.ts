/**
 * The lab's handle on its worker. A new worker per session of the lab, so that "retry" after a
 * lost device starts clean.
 */
import { proxy, type Remote, wrap } from "comlink";
import type { GpuWorkerApi } from "../worker/gpu.worker.ts";

export interface LabWorker {
  api: Remote<GpuWorkerApi>;
  terminate(): void;
}

export function startLabWorker(): LabWorker {
  const worker = new Worker(new URL("../worker/gpu.worker.ts", import.meta.url), {
    type: "module",
    name: "gpu-lab",
  });
  return { api: wrap<GpuWorkerApi>(worker), terminate: () => worker.terminate() };
}

/** The page decides about WebGPU too: no navigator.gpu here (or `?cpu`) means the CPU fallback. */
export function wantsCpuFallback(): boolean {
  return !("gpu" in navigator) || !navigator.gpu || new URLSearchParams(location.search).has("cpu");
}

export { proxy };
