/**
 * The live training view's state: its settings (mirrored in the link's `t=`), the worker that
 * trains, and the runs as they progress. Vanilla zustand with the worker injected, like the lab's.
 */
import { useStore } from "zustand";
import { createStore } from "zustand/vanilla";
import type { AdapterReport } from "../gpu/adapter.ts";
import type { Mode } from "../gpu/executor.ts";
import { LinkError } from "../link/linkError.ts";
import { openSealedText, sealText } from "../link/sealedText.ts";
import { recoveryCosts } from "../train/clock.ts";
import {
  checkTrainConfig,
  DEFAULT_TRAIN,
  decodeTrainParam,
  encodeTrainParam,
  type TrainConfig,
} from "../train/config.ts";
import type { TrainProgress } from "../train/session.ts";
import { registerAddressPart, requestAddressWrite } from "./address.ts";
import { type GpuWorkerHost, gpuWorkerHost, proxy, spawnGpuWorker, wantsCpuFallback } from "./labClient.ts";
import { appStore } from "./store.ts";
import { WorkerDied } from "./workerSupervisor.ts";

export type TrainStatus = "starting" | "ready" | "running" | "lost" | "error";

export interface TrainState {
  status: TrainStatus;
  adapter: AdapterReport | null;
  modes: Mode[];
  mode: Mode;
  config: TrainConfig;
  progress: TrainProgress | null;
  error: string | null;
  start(): Promise<void>;
  /** Applies a change if the whole config stays valid; otherwise throws TrainConfigError. */
  setConfig(patch: Partial<TrainConfig>): void;
  setMode(mode: Mode): void;
  run(): Promise<void>;
  stop(): void;
  kill(replica: number): void;
}

function message(e: unknown): string {
  if (e instanceof WorkerDied)
    return `the training worker died twice under this run (${e.message}); Retry starts a fresh one`;
  return e instanceof Error ? e.message : String(e);
}

export function createTrainStore(
  spawn: () => Worker = () => spawnGpuWorker("gpu-train"),
  wantsCpu: () => boolean = wantsCpuFallback,
  silenceMs?: number,
) {
  let worker: GpuWorkerHost | null = null;
  return createStore<TrainState>()((set, get) => ({
    status: "starting",
    adapter: null,
    modes: [],
    mode: "shared",
    config: DEFAULT_TRAIN,
    progress: null,
    error: null,

    async start() {
      worker?.terminate();
      worker = gpuWorkerHost(
        "training",
        {
          onReady: (info) =>
            set((s) => ({
              adapter: info.adapter,
              modes: info.modes,
              mode: info.modes.includes(s.mode) ? s.mode : (info.modes[0] ?? "cpu"),
            })),
          onLost: (m) => set({ status: "lost", error: `The GPU device was lost (${m}).` }),
        },
        spawn,
        wantsCpu,
        silenceMs,
      );
      set({ status: "starting", error: null });
      try {
        await worker.open();
        set({ status: "ready" });
      } catch (e) {
        set({ status: "error", error: message(e) });
      }
    },

    setConfig(patch) {
      const next = { ...get().config, ...patch };
      // Failures that no longer fit (fewer replicas or steps) go, rather than blocking the change.
      checkTrainConfig(next);
      set({ config: next });
    },

    setMode(mode) {
      set({ mode });
    },

    async run() {
      if (get().status !== "ready" || !worker) return;
      set({ status: "running", error: null, progress: null });
      const { config, mode } = get();
      // The link names the run being watched.
      requestAddressWrite("replace");
      try {
        const costs = recoveryCosts(appStore.getState().scenario);
        // Progress is a sign of life too (the ping may queue behind a busy step).
        let alive = () => {};
        const onProgress = proxy((p: TrainProgress) => {
          alive();
          set({ progress: p });
        });
        const final = await worker.call((api, isAlive) => {
          alive = isAlive;
          return api.train({ config, mode, costs }, onProgress);
        });
        set({ progress: final });
        if (get().status === "running") set({ status: "ready" });
      } catch (e) {
        // The worker still stands after a failed run: say why, and let the next one start.
        if (get().status !== "lost") set({ status: "ready", error: message(e) });
      }
    },

    stop() {
      if (get().status === "running") void worker?.signal((api) => api.cancel());
    },

    kill(replica) {
      if (get().status === "running") void worker?.signal((api) => api.kill(replica));
    },
  }));
}

export const trainStore = createTrainStore();

registerAddressPart({
  keys: ["t"],
  read: (values) => {
    const t = values.get("t");
    // A changed or cut value is refused as such before its settings are read.
    const text = t ? openSealedText(t, "training settings (t=)") : null;
    try {
      trainStore.setState({ config: text ? decodeTrainParam(text) : DEFAULT_TRAIN });
    } catch (e) {
      throw new LinkError(`The link's training settings (t=) were not used: ${message(e)}`);
    }
  },
  reset: () => trainStore.setState({ config: DEFAULT_TRAIN }),
  // On its own view the settings always show in the link (a copied link reproduces the run).
  write: () => {
    const { config } = trainStore.getState();
    const own = appStore.getState().tab === "train";
    return { t: own || config !== DEFAULT_TRAIN ? sealText(encodeTrainParam(config)) : "" };
  },
});
trainStore.subscribe((s, prev) => {
  if (s.config !== prev.config) requestAddressWrite("edit");
});

export function useTrainStore<T>(selector: (s: TrainState) => T): T {
  return useStore(trainStore, selector);
}
