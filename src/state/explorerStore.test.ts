import { describe, expect, it } from "vitest";
import { explorerStore } from "./explorerStore.ts";

describe("the explorer store", () => {
  it("focusing a failure selects it and puts it a quarter of the way into the window", () => {
    explorerStore.getState().focusFailure(3, 1000, 400);
    const { window, selectedFailure } = explorerStore.getState();
    expect(selectedFailure).toBe(3);
    expect(window).toEqual([900, 1300]);
    explorerStore.getState().focusFailure(0, 50, 400);
    expect(explorerStore.getState().window?.[0]).toBe(0);
  });
});

describe("the sweep's range", () => {
  it("takes a valid from..to, refuses a reversed one by name keeping the old, and resets with the axis", () => {
    const s = () => explorerStore.getState();
    s().setSweepOptions({ axis: "gpus" });
    expect(s().setSweepRange({ from: 2000, to: 8000 })).toEqual([]);
    expect(s().sweep.range).toEqual({ from: 2000, to: 8000 });
    expect(s().setSweepRange({ from: 9000, to: 8000 })[0]).toMatch(/Sweep from \/ to/);
    expect(s().sweep.range).toEqual({ from: 2000, to: 8000 });
    s().setSweepOptions({ points: 7 });
    expect(s().sweep.range).toEqual({ from: 2000, to: 8000 });
    s().setSweepOptions({ axis: "mtbf" });
    expect(s().sweep.range).toBeNull();
  });
});
