/**
 * The live training view's worker is supervised like the lab's (labClient.ts): a worker that hangs
 * under a run is replaced, opened again and the run rerun; twice, and the view says so and is free.
 */
import { expose } from "comlink";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { until, useWatchdogClock } from "../testing/watchdogClock.ts";
import type { TrainProgress } from "../train/session.ts";
import { createTrainStore } from "./trainStore.ts";

const software = {
  kind: "software",
  label: "swiftshader",
  timestamps: true,
  maxBufferBytes: 2 ** 30,
  maxBindingBytes: 2 ** 30,
};

// Only `finished` is read by the store; the rest is the view's.
const finished = { finished: true, stopped: false, runs: [], failures: [] } as unknown as TrainProgress;

const never = () => new Promise<never>(() => {});

/**
 * A worker stand-in over a MessageChannel. `hangs`: it opens the GPU and answers pings until a
 * run starts, then answers neither (a worker stuck in its run), whatever the machine's speed.
 */
function fakeWorker(hangs: boolean) {
  let stuck = false;
  const api = {
    ping: async () => (stuck ? never() : true),
    init: vi.fn(async () => ({ adapter: software, modes: ["shared", "cpu"], maxBytesPerDevice: 2 ** 30 })),
    train: vi.fn(async () => {
      if (!hangs) return finished;
      stuck = true;
      return never();
    }),
  };
  const { port1, port2 } = new MessageChannel();
  expose(api, port2);
  const terminate = vi.fn(() => {
    port1.close();
    port2.close();
  });
  return { api, terminate, worker: Object.assign(port1, { terminate }) as unknown as Worker };
}

describe("training store: supervised worker", () => {
  // The watchdog's clock moves only when the test moves it (../testing/watchdogClock.ts): a worker
  // is silent for 40 ms when, and only when, it is stuck in its run and the test lets 40 ms pass.
  beforeEach(useWatchdogClock);
  afterEach(() => {
    vi.useRealTimers();
  });

  it("a worker that hangs under a run is replaced and the run rerun on a freshly opened one", async () => {
    const first = fakeWorker(true);
    const second = fakeWorker(false);
    const spawn = vi.fn().mockReturnValueOnce(first.worker).mockReturnValueOnce(second.worker);
    const store = createTrainStore(spawn, () => false, 40);
    await store.getState().start();
    expect(store.getState().status).toBe("ready");
    const running = store.getState().run();
    await until(() => first.api.train.mock.calls.length === 1);
    await vi.advanceTimersByTimeAsync(40);
    await running;
    expect(first.terminate).toHaveBeenCalled();
    expect(second.api.init).toHaveBeenCalledTimes(1);
    expect(second.api.train).toHaveBeenCalledTimes(1);
    expect(store.getState().status).toBe("ready");
    expect(store.getState().progress?.finished).toBe(true);
    expect(store.getState().error).toBeNull();
  });

  it("a run whose worker dies twice stops with a message, and the view is free for the next", async () => {
    // Both workers open the GPU, then hang under the run.
    const first = fakeWorker(true);
    const second = fakeWorker(true);
    const spawn = vi.fn().mockReturnValueOnce(first.worker).mockReturnValueOnce(second.worker);
    const store = createTrainStore(spawn, () => false, 40);
    await store.getState().start();
    expect(store.getState().status).toBe("ready");
    const running = store.getState().run();
    await until(() => first.api.train.mock.calls.length === 1);
    await vi.advanceTimersByTimeAsync(40);
    await until(() => second.api.train.mock.calls.length === 1);
    await vi.advanceTimersByTimeAsync(40);
    await running;
    expect(store.getState().status).toBe("ready");
    expect(store.getState().error).toMatch(/the training worker died twice under this run/);
  });
});
