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
