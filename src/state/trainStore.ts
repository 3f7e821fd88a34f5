/**
 * The live training view's state: its settings (mirrored in the link's `t=`), the worker that
 * trains, and the runs as they progress. Vanilla zustand with the worker injected, like the lab's.
 */
import { useStore } from "zustand";
import { createStore } from "zustand/vanilla";
import type { AdapterReport } from "../gpu/adapter.ts";
import type { Mode } from "../gpu/executor.ts";
import { sealText } from "../link/sealedText.ts";
import { recoveryCosts } from "../train/clock.ts";
import { checkTrainConfig, DEFAULT_TRAIN, encodeTrainParam, type TrainConfig } from "../train/config.ts";
import type { TrainProgress } from "../train/session.ts";
import { addressRefused, registerAddressPart, requestAddressWrite } from "./address.ts";
import { type GpuWorkerHost, gpuWorkerHost, proxy, spawnGpuWorker, wantsCpuFallback } from "./labClient.ts";
import { appStore } from "./store.ts";
import { parseTrainAgain, parseTrainLink, parseTrainMode } from "./trainLink.ts";
import { WorkerDied } from "./workerSupervisor.ts";

export type TrainStatus = "starting" | "ready" | "running" | "lost" | "error";

export interface TrainState {
  status: TrainStatus;
  adapter: AdapterReport | null;
  modes: Mode[];
  mode: Mode;
  config: TrainConfig;
  progress: TrainProgress | null;
  /** The settings and mode the shown progress was trained with (the link says "finished" only for them). */
  ranConfig: TrainConfig | null;
  ranMode: Mode | null;
  /** Train as soon as the worker is ready: the link named a finished run (`tr=1`). */
  autoRun: boolean;
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
    ranConfig: null,
    ranMode: null,
    autoRun: false,
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
        return;
      }
      // A link to a finished run: the class sees what the teacher saw without pressing anything.
      if (get().autoRun) {
        set({ autoRun: false });
        void get().run();
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
      const { config, mode } = get();
      set({ status: "running", error: null, progress: null, ranConfig: config, ranMode: mode });
      // The link names the run being watched.
      requestAddressWrite("replace");
      try {
        const costs = recoveryCosts(appStore.getState().scenario);
        // Progress is a sign of life too (the ping may queue behind a busy step).
        let alive = () => {};
        const onProgress = proxy((p: TrainProgress) => {
          alive();
          set({ progress: p, ...killedInto(get(), p) });
        });
        const final = await worker.call((api, isAlive) => {
          alive = isAlive;
          return api.train({ config, mode, costs }, onProgress);
        });
        set({ progress: final, ...killedInto(get(), final) });
        if (get().status === "running") set({ status: "ready" });
        // A finished run is part of what the link reproduces (tr=1).
        requestAddressWrite("replace");
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

/**
 * A replica killed by the button joins the run's failure list in the worker; the settings take
 * the same list, so the link (t=) names the kill as a scheduled failure and trains the same run.
 * (A kill lands before the step all runs are at, as a scheduled failure at that step does.)
 */
function killedInto(s: TrainState, p: TrainProgress): Partial<TrainState> {
  if (s.ranConfig !== s.config || p.failures.length === s.config.failures.length) return {};
  const config = { ...s.config, failures: p.failures.map((f) => ({ ...f })) };
  return { config, ranConfig: config };
}

export const trainStore = createTrainStore();

// tm= and t= are judged apart: a bad tm= keeps a good t= and back. tm= is read first.
registerAddressPart({
  keys: ["tm"],
  read: (values) => {
    const asked = parseTrainMode(values.get("tm"));
    const s = trainStore.getState();
    // Once the worker said which modes this browser has, one it lacks falls back (as onReady does).
    const mode = s.modes.length > 0 && !s.modes.includes(asked) ? (s.modes[0] ?? "cpu") : asked;
    trainStore.setState({ mode });
  },
  write: () => {
    const { mode } = trainStore.getState();
    return { tm: mode !== "shared" ? mode : "" };
  },
});
registerAddressPart({
  keys: ["t", "tr"],
  read: (values) => {
    const again = parseTrainAgain(values.get("tr"));
    const config = parseTrainLink(values.get("t"));
    const s = trainStore.getState();
    const mode = s.mode;
    // Back or Forward to the entry of the run on screen: it is shown already, keep it.
    const shown =
      s.ranConfig !== null &&
      s.ranMode === mode &&
      s.progress?.finished === true &&
      !s.progress.stopped &&
      encodeTrainParam(s.ranConfig) === encodeTrainParam(config);
    trainStore.setState({ config: shown && s.ranConfig ? s.ranConfig : config });
    if (!again || shown) return;
    // The run is of the link's mode: with tm= refused it would be another run.
    if (addressRefused("tm")) return "The link's tr=1 was not trained: its mode (tm=) was refused.";
    if (s.status === "ready") void trainStore.getState().run();
    else if (s.status === "starting") trainStore.setState({ autoRun: true });
  },
  // On its own view the settings always show in the link (a copied link reproduces the run), with
  // the mode and, while the view holds a finished run of exactly these settings, tr=1: open it,
  // train it (the view keeps its run while another is shown, and so does the link).
  write: () => {
    const { config, mode, progress, ranConfig, ranMode } = trainStore.getState();
    const own = appStore.getState().tab === "train";
    const finished =
      progress?.finished === true && !progress.stopped && ranConfig === config && ranMode === mode;
    return {
      t: own || config !== DEFAULT_TRAIN || finished ? sealText(encodeTrainParam(config)) : "",
      tr: finished ? "1" : "",
    };
  },
});
trainStore.subscribe((s, prev) => {
  if (s.config !== prev.config || s.mode !== prev.mode) requestAddressWrite("edit");
});

export function useTrainStore<T>(selector: (s: TrainState) => T): T {
  return useStore(trainStore, selector);
}
