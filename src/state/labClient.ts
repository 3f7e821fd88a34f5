/**
 * The page's handle on a WebGPU worker (the lab's and the live training's each have one): it
 * starts the worker, opens the GPU in it (`init`), and supervises it (workerSupervisor.ts). A
 * worker that throws or falls silent is replaced, the new one opened again, and the request
 * that was waiting run once more on it; the page is told why (workerHealth.ts). A second death
 * of the same request fails it, so no view is left "running" for ever.
 */
import { proxy, type Remote } from "comlink";
import type { AdapterReport } from "../gpu/adapter.ts";
import type { Mode } from "../gpu/executor.ts";
import type { GpuWorkerApi } from "../worker/gpu.worker.ts";
import { reportRestart } from "./workerHealth.ts";
import { DEFAULT_SILENCE_MS, type Supervised, supervise } from "./workerSupervisor.ts";

export interface GpuInfo {
  adapter: AdapterReport;
  modes: Mode[];
  maxBytesPerDevice: number;
}

export interface GpuHostHooks {
  /** Each opening of the GPU, the first and any after a replaced worker. */
  onReady(info: GpuInfo): void;
  /** The GPU device was lost (the worker lives on, its device does not). */
  onLost(message: string): void;
  /** The worker died under a request and a fresh one runs it again. */
  onRestart?(reason: string): void;
}

export interface GpuWorkerHost {
  /** Opens the GPU in the worker (starting one if none runs). */
  open(): Promise<GpuInfo>;
  /** A supervised request, rerun once on a fresh worker if this one dies under it. */
  call<T>(fn: (api: Remote<GpuWorkerApi>, alive: () => void) => Promise<T>): Promise<T>;
  /** A signal to the running worker (kill, cancel): never starts one, never rerun; null if none runs. */
  signal<T>(fn: (api: Remote<GpuWorkerApi>) => Promise<T>): Promise<T> | null;
  terminate(): void;
}

export function spawnGpuWorker(name: string): Worker {
  return new Worker(new URL("../worker/gpu.worker.ts", import.meta.url), { type: "module", name });
}

/**
 * `label` names the worker in the page's notice ("The WebGPU lab worker died …"). `spawn` and
 * `silenceMs` are for tests.
 */
export function gpuWorkerHost(
  label: string,
  hooks: GpuHostHooks,
  spawn: () => Worker,
  wantsCpu: () => boolean = wantsCpuFallback,
  silenceMs = DEFAULT_SILENCE_MS,
): GpuWorkerHost {
  // The GPU waits (a slow step, a watchdog's timeout) are long and quiet: ask the worker itself.
  const sup: Supervised<GpuWorkerApi> = supervise<GpuWorkerApi>(spawn, silenceMs, {
    ping: (api) => api.ping(),
  });
  // Each worker is opened once; a replaced worker's requests open the new one first.
  const opened = new WeakMap<Remote<GpuWorkerApi>, Promise<GpuInfo>>();
  const openOn = (api: Remote<GpuWorkerApi>): Promise<GpuInfo> => {
    let p = opened.get(api);
    if (!p) {
      p = api.init(wantsCpu(), proxy(hooks.onLost)).then((info) => {
        hooks.onReady(info);
        return info;
      });
      opened.set(api, p);
    }
    return p;
  };
  const report = reportRestart(label);
  const onRestart = (reason: string) => {
    report(reason);
    hooks.onRestart?.(reason);
  };
  return {
    open: () => sup.call((api) => openOn(api), { onRestart }),
    call: (fn) =>
      sup.call(
        async (api, alive) => {
          await openOn(api);
          return fn(api, alive);
        },
        { onRestart },
      ),
    signal(fn) {
      const api = sup.running;
      return api ? fn(api) : null;
    },
    terminate: () => sup.terminate(),
  };
}

/** The page decides about WebGPU too: no navigator.gpu here (or `?cpu`) means the CPU fallback. */
export function wantsCpuFallback(): boolean {
  return !("gpu" in navigator) || !navigator.gpu || new URLSearchParams(location.search).has("cpu");
}

export { proxy };
