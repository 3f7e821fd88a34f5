import { readFileSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";
import { computeForElements } from "../step/presetCatalog.ts";
import { stepApi } from "../worker/stepApi.ts";
import type { StepWorker } from "./stepClient.ts";
import { createStepStore } from "./stepStore.ts";

/** The real endpoints, called in-process, counting calls. */
function fakeWorker() {
  const w = {
    stepRun: vi.fn(async (req: Parameters<typeof stepApi.stepRun>[0]) => stepApi.stepRun(req)),
    stepSweep: vi.fn(async (req: Parameters<typeof stepApi.stepSweep>[0]) => stepApi.stepSweep(req)),
    stepTrace: vi.fn(async (req: Parameters<typeof stepApi.stepTrace>[0]) => stepApi.stepTrace(req)),
  };
  return w;
}

async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
}

describe("step store", () => {
  it("computes the preset, then recomputes on a cap change without redoing the sweep", async () => {
    const w = fakeWorker();
    const { store, start } = createStepStore(() => w as unknown as StepWorker);
    await start();
    await settle();
    expect(store.getState().result?.buckets).toHaveLength(5);
    expect(store.getState().sweep?.points).toHaveLength(40);
    store.getState().setCapMb(1);
    await settle();
    expect(store.getState().result?.buckets).toHaveLength(35);
    expect(w.stepSweep).toHaveBeenCalledTimes(1);
    store.getState().setParallel({ replicas: 8 });
    await settle();
    expect(w.stepSweep).toHaveBeenCalledTimes(2);
  });

  it("a refused paste keeps the previous model, its results and its settings, and names the entry", async () => {
    const w = fakeWorker();
    const { store } = createStepStore(() => w as unknown as StepWorker);
    store.getState().pickPreset("llama3-8b");
    await settle();
    const before = store.getState();
    expect(before.result?.bucketCount).toBeGreaterThan(100);
    expect(before.sweep).not.toBeNull();
    const changes: string[] = [];
    const stop = store.subscribe((s, prev) => {
      if (s.source !== prev.source) changes.push("source");
      if (s.config !== prev.config) changes.push("config");
    });
    for (const bad of [
      '[{"name":"w","shape":[64],"dtype":"torch.float33"}]',
      '[{"name": "w", "shape": [4], "dtype": "float32"}, {"name": "b", "dtype": "float32"}]',
      "[{",
    ]) {
      store.getState().setPasteText(bad);
      store.getState().applyPaste();
      await settle();
      const after = store.getState();
      expect(after.problem?.error, bad).toBeTruthy();
      // What the link and history are written from never moved, and what is shown is still Llama's.
      expect(after.source).toBe(before.source);
      expect(after.config).toBe(before.config);
      expect(after.model).toBe(before.model);
      expect(after.result).toBe(before.result);
      expect(after.sweep).toBe(before.sweep);
      expect(after.busy).toBe(false);
    }
    expect(changes).toEqual([]);
    store
      .getState()
      .setPasteText('[{"name": "w", "shape": [4], "dtype": "float32"}, {"name": "b", "dtype": "float32"}]');
    store.getState().applyPaste();
    await settle();
    expect(store.getState().problem).toMatchObject({ entry: 1 });
    expect(store.getState().problem?.error).toMatch(/"b"/);
    stop();
  });

  it("takes a preset's compute times when it is picked", async () => {
    const w = fakeWorker();
    const { store } = createStepStore(() => w as unknown as StepWorker);
    store.getState().pickPreset("llama3-8b");
    await settle();
    expect(store.getState().config.compute.forwardMs).toBeGreaterThan(100);
    expect(store.getState().model?.count).toBe(291);
  });

  it("gives a pasted model its own compute times, not the previous model's", async () => {
    const w = fakeWorker();
    const { store } = createStepStore(() => w as unknown as StepWorker);
    store.getState().pickPreset("llama3-8b");
    await settle();
    const llama = store.getState().config.compute;
    store
      .getState()
      .setPasteText(
        '[{"name": "w", "shape": [1], "dtype": "float32"}, {"name": "b", "shape": [1], "dtype": "float32"}]',
      );
    store.getState().applyPaste();
    await settle();
    expect(store.getState().model?.elements).toBe(2);
    const compute = store.getState().config.compute;
    expect(compute).toEqual(computeForElements(2));
    expect(compute.forwardMs).toBeLessThan(llama.forwardMs);
    expect(compute.backwardMs).toBeLessThan(1);
    // The step shown is computed with those times.
    expect(store.getState().result?.metrics).toBeDefined();
    expect(w.stepRun).toHaveBeenLastCalledWith(
      expect.objectContaining({ config: expect.objectContaining({ compute }) }),
    );
  });

  it("shows a pasted model's step only with its own compute times, and no older model's sweep beside it", async () => {
    const w = fakeWorker();
    let releaseSweep = () => {};
    w.stepSweep.mockImplementation(async (req) => {
      await new Promise<void>((r) => {
        releaseSweep = r;
      });
      return stepApi.stepSweep(req);
    });
    const { store, start } = createStepStore(() => w as unknown as StepWorker);
    const start0 = start();
    await settle();
    releaseSweep();
    await start0;
    await settle();
    expect(store.getState().sweep).not.toBeNull();
    const shown: (number | undefined)[] = [];
    const stop = store.subscribe((s) => {
      if (s.result && s.model?.name === "pasted model") {
        shown.push(s.config.compute.forwardMs);
        expect(s.sweep).toBeNull();
      }
    });
    store
      .getState()
      .setPasteText(
        '[{"name": "w", "shape": [8, 8], "dtype": "float32"}, {"name": "b", "shape": [8], "dtype": "float32"}]',
      );
    store.getState().applyPaste();
    await settle();
    expect(store.getState().model?.count).toBe(2);
    expect(store.getState().result).not.toBeNull();
    expect(store.getState().sweep).toBeNull();
    // Every step drawn for the paste was timed with the paste's own compute.
    expect(new Set(shown)).toEqual(new Set([computeForElements(72).forwardMs]));
    stop();
    releaseSweep();
    await settle();
    expect(store.getState().sweep?.points).toHaveLength(40);
  });
});

describe("one list, one step", () => {
  it.each([
    ["resnet50", "resnet50.json"],
    ["gpt2_medium_like", "gpt2_medium_like.json"],
  ])("the %s preset and a paste of %s give the same compute times and the same step", async (id, file) => {
    const text = readFileSync(new URL(`../step/models/${file}`, import.meta.url), "utf8");
    const w = fakeWorker();
    const { store } = createStepStore(() => w as unknown as StepWorker);
    store.getState().pickPreset(id);
    await settle();
    const preset = store.getState();
    expect(preset.model?.preset).toBe(id);
    const asPreset = { compute: preset.config.compute, metrics: preset.result?.metrics };
    store.getState().setPasteText(text);
    store.getState().applyPaste();
    await settle();
    await settle();
    const pasted = store.getState();
    expect(pasted.source.kind).toBe("paste");
    expect(pasted.model?.preset).toBe(id);
    expect(pasted.config.compute).toEqual(asPreset.compute);
    expect(pasted.result?.metrics).toEqual(asPreset.metrics);
  });

  it("a list that is no preset's gets times from its size (and the view says so)", async () => {
    const w = fakeWorker();
    const { store } = createStepStore(() => w as unknown as StepWorker);
    // ResNet-50's list less its last parameter: close, but not that preset.
    const file = JSON.parse(
      readFileSync(new URL("../step/models/resnet50.json", import.meta.url), "utf8"),
    ) as {
      parameters: unknown[];
    };
    store.getState().setPasteText(JSON.stringify(file.parameters.slice(0, -1)));
    store.getState().applyPaste();
    await settle();
    await settle();
    const s = store.getState();
    expect(s.model?.preset).toBeNull();
    expect(s.config.compute).toEqual(computeForElements(s.model!.elements));
  });
});
