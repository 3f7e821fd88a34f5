import { describe, expect, it, vi } from "vitest";
import { encodeStepParam } from "../link/stepLink.ts";
import { DEFAULT_OUTER_SYNC } from "../step/outerSyncSettings.ts";
import { readAddress } from "./address.ts";
import type { StepWorker } from "./stepClient.ts";
import { createStepStore, stepSettings, stepStore } from "./stepStore.ts";

describe("the outer-sync panel's settings in the step store", () => {
  it("refuse τ ≥ H naming both, keeping the last good cadence, and never ask the worker", () => {
    const worker = { stepRun: vi.fn(), stepSweep: vi.fn(), stepTrace: vi.fn() };
    const { store } = createStepStore(() => worker as unknown as StepWorker);
    expect(store.getState().setCadence({ syncEvery: 20, overlapSteps: 19 })).toBeNull();
    expect(store.getState().outer).toMatchObject({ syncEvery: 20, overlapSteps: 19 });
    expect(store.getState().setCadence({ syncEvery: 19 })).toEqual([
      "overlap τ (19) must be below sync every H (19): τ in [0, H − 1]",
    ]);
    expect(store.getState().setCadence({ overlapSteps: 25 })?.[0]).toMatch(/τ \(25\).*H \(20\)/);
    expect(store.getState().outer).toMatchObject({ syncEvery: 20, overlapSteps: 19 });
    store.getState().setReplicaLink({ bandwidth: 3e8 });
    expect(store.getState().outer.link).toEqual({ ...DEFAULT_OUTER_SYNC.link, bandwidth: 3e8 });
    // The panel computes on the page: the step worker is not asked for any of it.
    expect(worker.stepRun).not.toHaveBeenCalled();
  });

  it("travel in the address, and a link without them opens the panel at its defaults", () => {
    const outer = { link: { alpha: 0.03, bandwidth: 2e8 }, syncEvery: 400, overlapSteps: 12 };
    const st = encodeStepParam({ ...stepSettings(stepStore().getState()), outer }).param;
    readAddress(`#v=step&st=${st}`);
    expect(stepStore().getState().outer).toEqual(outer);
    expect(stepSettings(stepStore().getState()).outer).toEqual(outer);
    readAddress("#v=step");
    expect(stepStore().getState().outer).toEqual(DEFAULT_OUTER_SYNC);
    expect(stepSettings(stepStore().getState())).not.toHaveProperty("outer");
  });
});
