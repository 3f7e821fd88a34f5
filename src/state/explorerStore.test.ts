import { describe, expect, it } from "vitest";
import { explorerStore, parseWindowParam, windowParam } from "./explorerStore.ts";

describe("time window in the link", () => {
  it("round-trips a window through `w=` in tenths of a second", () => {
    expect(windowParam([12.25, 3600])).toBe("12.3,3600.0");
    expect(parseWindowParam(windowParam([12.3, 3600]))).toEqual([12.3, 3600]);
    expect(windowParam(null)).toBe("");
  });

  it("ignores malformed or empty windows (the whole run is shown)", () => {
    for (const bad of [undefined, "", "5", "a,b", "10,5", "3,3", "-1,5", "1,2,3"]) {
      expect(parseWindowParam(bad), String(bad)).toBeNull();
    }
  });

  it("focusing a failure selects it and puts it a quarter of the way into the window", () => {
    explorerStore.getState().focusFailure(3, 1000, 400);
    const { window, selectedFailure } = explorerStore.getState();
    expect(selectedFailure).toBe(3);
    expect(window).toEqual([900, 1300]);
    explorerStore.getState().focusFailure(0, 50, 400);
    expect(explorerStore.getState().window?.[0]).toBe(0);
  });
});
