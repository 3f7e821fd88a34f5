import { expose } from "comlink";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CaseRequest, CaseResult } from "../gpu/runCase.ts";
import type { FaultReport, KillAnswer, LabProgress } from "../lab/labRequests.ts";
import { until, useWatchdogClock } from "../testing/watchdogClock.ts";
import type { GpuWorkerApi } from "../worker/gpu.worker.ts";
import { LATE_KILL_NOTE } from "./labState.ts";
import { createLabStore } from "./labStore.ts";
import { workerHealth } from "./workerHealth.ts";

const software = {
  kind: "software",
  label: "swiftshader",
  timestamps: true,
  maxBufferBytes: 2 ** 30,
  maxBindingBytes: 2 ** 30,
};

function result(req: CaseRequest): CaseResult {
  return {
    ...req,
    seconds: 0.01,
    algbw: 1,
    busbw: 1.5,
    efficiency: 0.5,
    verified: true,
    maxAbsError: 0,
    toleranceAtWorst: 1e-7,
    timer: "gpu-timestamp",
    reps: 3,
    submits: 1,
    trafficBytes: 1,
  };
}

type FakeApi = Partial<Record<keyof GpuWorkerApi, (...args: never[]) => unknown>>;

/**
 * A stand-in worker: a MessageChannel with `api` exposed on the far end through comlink, as the
 * real worker is. `lose()` fires the device-lost callback the store registered; `crash()` is the
 * Worker's `error` event (an uncaught error inside it).
 */
function fakeWorker(overrides: FakeApi = {}) {
  let lost: ((m: string) => void) | null = null;
  let failNextRun = false;
  const api = {
    ping: vi.fn(async () => true),
    init: vi.fn(async (_cpu: boolean, onLost: (m: string) => void) => {
      lost = onLost;
      return { adapter: software, modes: ["shared", "separate", "cpu"], maxBytesPerDevice: 2 ** 30 };
    }),
    run: vi.fn(async (req: CaseRequest, _onProgress?: (p: LabProgress) => void) => {
      if (failNextRun) throw new Error("mapAsync failed: device destroyed");
      return result(req);
    }),
    ceilings: vi.fn(async () => ({
      bytes: 1,
      copyBufferGBps: 8,
      streamCopyGBps: 2,
      streamAddGBps: 1.5,
      streamingGBps: 2,
      timer: "gpu-timestamp",
    })),
    kill: vi.fn((): KillAnswer => "queued"),
    cancel: vi.fn(),
  };
  const { port1, port2 } = new MessageChannel();
  // Through a forwarder, so a test may still replace one of the api's mocks after the start.
  expose(
    new Proxy(api, {
      get: (t, k) => (overrides as Record<string | symbol, unknown>)[k] ?? Reflect.get(t, k),
    }),
    port2,
  );
  const terminate = vi.fn(() => {
    port1.close();
    port2.close();
  });
  const worker = Object.assign(port1, { terminate }) as unknown as Worker;
  return {
    worker,
    api,
    terminate,
    lose: (m: string) => lost?.(m),
    crash: () => port1.dispatchEvent(new Event("error")),
    failRuns: () => {
      failNextRun = true;
    },
  };
}

/** Workers handed out in turn, one per spawn. */
function spawner(...workers: Array<ReturnType<typeof fakeWorker>>) {
  const spawn = vi.fn();
  for (const w of workers) spawn.mockReturnValueOnce(w.worker);
  return spawn;
}

const never = () => new Promise<never>(() => {});

/**
 * A worker stuck in its run: it opens the GPU and answers pings until the run starts, then
 * answers neither, whatever the machine's speed.
 */
function stuckInRun(): FakeApi & { stuck(): boolean } {
  let stuck = false;
  return {
    run: () => {
      stuck = true;
      return never();
    },
    ping: async () => (stuck ? never() : true),
    /** The run reached the worker and it is stuck in it (for the test, not the store). */
    stuck: () => stuck,
  };
}

/** A fault demo's report where no member was lost: a ring of 3, verified (the kill came too late or not at all). */
function cleanRing(over: Partial<FaultReport> = {}): FaultReport {
  return {
    ringBefore: [0, 1, 2],
    ringAfter: [0, 1, 2],
    dropped: [],
    verified: true,
    maxAbsError: 0,
    attempts: 1,
    detectMs: null,
    recoverMs: null,
    totalMs: 1,
    stepTimeoutMs: 300,
    lateKill: null,
    ...over,
  };
}

describe("lab store", () => {
  it("starts the worker, reports the adapter and records verified runs", async () => {
    const w = fakeWorker();
    const store = createLabStore(
      () => w.worker,
      () => false,
    );
    await store.getState().start();
    expect(store.getState().status).toBe("ready");
    expect(store.getState().adapter?.kind).toBe("software");
    await store.getState().run();
    expect(store.getState().results).toHaveLength(1);
    expect(store.getState().results[0]).toMatchObject({ verified: true, algorithm: "ring" });
  });

  it("a lost device shows a message and Retry starts a fresh worker", async () => {
    const first = fakeWorker();
    const second = fakeWorker();
    const store = createLabStore(spawner(first, second), () => false);
    await store.getState().start();
    first.failRuns();
    const running = store.getState().run();
    first.lose("destroyed: GPU process crashed");
    await running;
    // The run's own failure does not hide the real cause.
    expect(store.getState().status).toBe("lost");
    expect(store.getState().error).toMatch(/GPU device was lost.*GPU process crashed/);
    await store.getState().retry();
    expect(first.terminate).toHaveBeenCalled();
    expect(store.getState().status).toBe("ready");
    await store.getState().run();
    expect(second.api.run).toHaveBeenCalled();
  });

  it("asks for the CPU fallback when the page has no WebGPU, and keeps the form in the modes offered", async () => {
    const w = fakeWorker();
    w.api.init.mockResolvedValueOnce({
      adapter: { ...software, kind: "cpu", label: "no WebGPU" },
      modes: ["cpu"],
      maxBytesPerDevice: 2 ** 31,
    });
    const store = createLabStore(
      () => w.worker,
      () => true,
    );
    await store.getState().start();
    expect(w.api.init.mock.calls[0]?.[0]).toBe(true);
    expect(store.getState().form.mode).toBe("cpu");
    expect(store.getState().fault.mode).toBe("cpu");
  });

  it("keeps the algorithm valid for the mode (one-shot needs the shared mode)", async () => {
    const w = fakeWorker();
    const store = createLabStore(
      () => w.worker,
      () => false,
    );
    await store.getState().start();
    store.getState().setForm({ algorithm: "one-shot" });
    store.getState().setForm({ mode: "separate" });
    expect(store.getState().form.algorithm).toBe("ring");
  });
});

describe("lab store: the run form is validated like the scenario", () => {
  async function ready() {
    const w = fakeWorker();
    const store = createLabStore(
      () => w.worker,
      () => false,
    );
    await store.getState().start();
    return { store, w };
  }

  it("refuses 2.5 devices by name and range, keeping the previous settings", async () => {
    const { store } = await ready();
    const before = store.getState().form;
    const problems = store.getState().setForm({ devices: 2.5 });
    expect(problems.join(" ")).toMatch(/Devices: must be a whole number in \[2, 16\]/);
    expect(store.getState().form).toBe(before);
  });

  it("refuses size 0 instead of crashing the run", async () => {
    const { store, w } = await ready();
    const problems = store.getState().setForm({ bytesPerDevice: 0 });
    expect(problems.join(" ")).toMatch(/Size \/ device: must be a positive/);
    await store.getState().run();
    expect(w.api.run.mock.calls[0]?.[0]).toMatchObject({ bytesPerDevice: 1024 * 1024 });
  });

  it("refuses 16 devices × 64 MiB by the memory estimate, naming both fields and the figure", async () => {
    const { store } = await ready();
    const problems = store.getState().setForm({ devices: 16, bytesPerDevice: 64 * 1024 * 1024 });
    expect(problems.join(" ")).toMatch(
      /Devices × Size \/ device: 16 × 64 MiB would allocate about 5\.06 GiB.*budget is 1 GiB/,
    );
    expect(store.getState().form.devices).toBe(4);
    expect(store.getState().setForm({ devices: 16, bytesPerDevice: 4 * 1024 * 1024 })).toEqual([]);
  });

  it("refuses a size over the adapter's buffer limit", async () => {
    const { store } = await ready();
    store.setState({ maxBytesPerDevice: 1024 * 1024 });
    const problems = store.getState().setForm({ devices: 2, bytesPerDevice: 4 * 1024 * 1024 });
    expect(problems.join(" ")).toMatch(/over this adapter's buffer limit of 1 MiB/);
  });
});

describe("lab store: a worker that dies is replaced, never a permanent 'running…'", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("a worker that falls silent under a run is replaced, opened again, and the run rerun on it", async () => {
    // The first worker hangs in the run: neither it nor the supervisor's pings are answered.
    // The watchdog's clock moves only when the test moves it (../testing/watchdogClock.ts): 40 ms
    // pass once the first worker is stuck in its run, none while a healthy one answers.
    useWatchdogClock();
    const hang = stuckInRun();
    const first = fakeWorker(hang);
    const second = fakeWorker();
    const spawn = spawner(first, second);
    const store = createLabStore(spawn, () => false, 40);
    await store.getState().start();
    const running = store.getState().run();
    await until(hang.stuck);
    await vi.advanceTimersByTimeAsync(40);
    await running;
    expect(spawn).toHaveBeenCalledTimes(2);
    expect(first.terminate).toHaveBeenCalled();
    // The fresh worker opened the GPU before it ran the request again.
    expect(second.api.init).toHaveBeenCalledTimes(1);
    expect(second.api.run).toHaveBeenCalledTimes(1);
    const s = store.getState();
    expect(s.status).toBe("ready");
    expect(s.results).toHaveLength(1);
    expect(s.note).toMatch(/The lab's worker died \(the worker stopped answering.*run again/);
    expect(workerHealth.getState().notice).toMatch(/The WebGPU lab worker died/);
  });

  it("a worker that throws an uncaught error under a fault demo is replaced and the demo rerun", async () => {
    const faultReport = cleanRing();
    const first = fakeWorker({ fault: never });
    const second = fakeWorker({ fault: async () => faultReport });
    const store = createLabStore(spawner(first, second), () => false, 60_000);
    await store.getState().start();
    const demo = store.getState().runFault();
    await new Promise((r) => setTimeout(r, 10));
    expect(store.getState().status).toBe("running");
    first.crash();
    await demo;
    expect(store.getState().status).toBe("ready");
    expect(store.getState().faultResult).toEqual(faultReport);
  });

  it("a request whose worker dies twice ends in an error with Retry, not in 'running'", async () => {
    useWatchdogClock();
    const hangs = [stuckInRun(), stuckInRun()] as const;
    const store = createLabStore(spawner(fakeWorker(hangs[0]), fakeWorker(hangs[1])), () => false, 30);
    await store.getState().start();
    const running = store.getState().run();
    await until(hangs[0].stuck);
    await vi.advanceTimersByTimeAsync(30);
    await until(hangs[1].stuck);
    await vi.advanceTimersByTimeAsync(30);
    await running;
    expect(store.getState().status).toBe("error");
    expect(store.getState().error).toMatch(/the lab's worker died twice under this request/);
  });
});

describe("lab store: progress, Cancel and a late Kill", () => {
  it("shows a run's progress, done of total, while it runs", async () => {
    let release: () => void = () => {};
    const w = fakeWorker({
      run: (async (req: CaseRequest, onProgress: (p: LabProgress) => Promise<void>) => {
        await onProgress({ done: 2, total: 5, what: "timed run 1 of 3", caseIndex: 1, cases: 1 });
        await new Promise<void>((r) => {
          release = r;
        });
        return result(req);
      }) as never,
    });
    const store = createLabStore(
      () => w.worker,
      () => false,
    );
    await store.getState().start();
    const running = store.getState().run();
    await vi.waitFor(() => expect(store.getState().progress?.total).toBe(5));
    expect(store.getState().progress).toMatchObject({
      done: 2,
      text: expect.stringMatching(/timed run 1 of 3, 2 \/ 5/),
    });
    expect(store.getState().job).toBe("run");
    release();
    await running;
    expect(store.getState().progress).toBeNull();
    expect(store.getState().job).toBeNull();
  });

  it("Cancel ends the job as cancelled (ready, with a note), not as an error", async () => {
    let stop: (e: Error) => void = () => {};
    const w = fakeWorker({
      run: (() =>
        new Promise((_, reject) => {
          stop = reject;
        })) as never,
      cancel: (() => stop(new Error("cancelled"))) as never,
    });
    const store = createLabStore(
      () => w.worker,
      () => false,
    );
    await store.getState().start();
    const running = store.getState().run();
    await new Promise((r) => setTimeout(r, 10));
    store.getState().cancel();
    await running;
    expect(store.getState().status).toBe("ready");
    expect(store.getState().note).toBe("Cancelled.");
    expect(store.getState().error).toBeNull();
  });

  it("a kill by the button becomes the plan's kill, and the demo on screen is what its link reruns", async () => {
    const w = fakeWorker({
      fault: (async (_req: unknown, events: (e: unknown) => Promise<void>) => {
        await events({ type: "killed", rank: 2, attempt: 0, step: 3, atMs: 5 });
        return cleanRing();
      }) as never,
    });
    const store = createLabStore(
      () => w.worker,
      () => false,
    );
    await store.getState().start();
    store.getState().setFault({ killStep: null, victim: 0 }); // "Kill at step: by the button"
    await store.getState().runFault();
    expect(store.getState().fault).toMatchObject({ victim: 2, killStep: 3 });
    expect(store.getState().faultShownFor).toBe(store.getState().fault);
    // Another plan: the demo on screen is no longer the plan's.
    store.getState().setFault({ killStep: 1 });
    expect(store.getState().faultShownFor).not.toBe(store.getState().fault);
  });

  it("a link's fault demo (lfd=1) runs once the lab is ready", async () => {
    const fault = vi.fn(async () => cleanRing());
    const w = fakeWorker({ fault: fault as never });
    const store = createLabStore(
      () => w.worker,
      () => false,
    );
    store.getState().wantFault(true);
    await store.getState().start();
    await vi.waitFor(() => expect(store.getState().faultResult).not.toBeNull());
    expect(fault).toHaveBeenCalledTimes(1);
    expect(store.getState().faultWanted).toBe(false);
  });

  it("a Kill that reaches the worker after the ring finished says so", async () => {
    let finish: (r: FaultReport) => void = () => {};
    const w = fakeWorker({
      fault: (() =>
        new Promise((r) => {
          finish = r;
        })) as never,
      kill: (() => "finished") as never,
    });
    const store = createLabStore(
      () => w.worker,
      () => false,
    );
    await store.getState().start();
    const demo = store.getState().runFault();
    await new Promise((r) => setTimeout(r, 10));
    await store.getState().killNow();
    expect(store.getState().killNote).toBe(LATE_KILL_NOTE);
    finish(cleanRing());
    await demo;
    expect(store.getState().killNote).toBe(LATE_KILL_NOTE);
  });

  it("a Kill queued during the last step comes back in the report as late, and the page says so", async () => {
    const w = fakeWorker({
      fault: (async () => cleanRing({ lateKill: 2 })) as never,
    });
    const store = createLabStore(
      () => w.worker,
      () => false,
    );
    await store.getState().start();
    await store.getState().runFault();
    expect(store.getState().killNote).toBe(LATE_KILL_NOTE);
  });
});
