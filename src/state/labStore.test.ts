import type { Remote } from "comlink";
import { describe, expect, it, vi } from "vitest";
import type { CaseRequest, CaseResult } from "../gpu/runCase.ts";
import type { GpuWorkerApi } from "../worker/gpu.worker.ts";
import type { LabWorker } from "./labClient.ts";
import { createLabStore } from "./labStore.ts";

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

/** A stand-in worker: `lose()` fires the device-lost callback the store registered. */
function fakeWorker() {
  let lost: ((m: string) => void) | null = null;
  let failNextRun = false;
  const api = {
    init: vi.fn(async (_cpu: boolean, onLost: (m: string) => void) => {
      lost = onLost;
      return { adapter: software, modes: ["shared", "separate", "cpu"], maxBytesPerDevice: 2 ** 30 };
    }),
    run: vi.fn(async (req: CaseRequest) => {
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
    kill: vi.fn(),
    cancel: vi.fn(),
  };
  const worker: LabWorker = { api: api as unknown as Remote<GpuWorkerApi>, terminate: vi.fn() };
  return {
    worker,
    api,
    lose: (m: string) => lost?.(m),
    failRuns: () => {
      failNextRun = true;
    },
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
    const spawn = vi.fn().mockReturnValueOnce(first.worker).mockReturnValueOnce(second.worker);
    const store = createLabStore(spawn, () => false);
    await store.getState().start();
    first.failRuns();
    const running = store.getState().run();
    first.lose("destroyed: GPU process crashed");
    await running;
    // The run's own failure does not hide the real cause.
    expect(store.getState().status).toBe("lost");
    expect(store.getState().error).toMatch(/GPU device was lost.*GPU process crashed/);
    await store.getState().retry();
    expect(first.worker.terminate).toHaveBeenCalled();
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
    expect(w.api.run).toHaveBeenCalledWith(expect.objectContaining({ bytesPerDevice: 1024 * 1024 }));
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
