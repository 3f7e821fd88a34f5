import { describe, expect, it } from "vitest";
import { DEFAULT_TORNADO_SETTINGS } from "../sim/tornado.ts";
import { tornadoStore } from "./tornadoStore.ts";

describe("tornado settings", () => {
  it("refuses each bad setting by name and range, and keeps the old values", () => {
    const set = tornadoStore.getState().setSettings;
    expect(set({ amount: 1.5 })).toEqual(["Move each knob by: must be in [1, 99] %."]);
    expect(set({ precision: 0 })).toEqual(["Precision: must be in [0.1, 10] points."]);
    expect(set({ maxSeeds: 20.5 })).toEqual(["Seeds at most: must be an integer in [20, 5000]."]);
    expect(set({ maxSeeds: Number.NaN, amount: 0.2 })).toHaveLength(1);
    expect(tornadoStore.getState().settings).toEqual(DEFAULT_TORNADO_SETTINGS);
    expect(set({ amount: 0.2, maxSeeds: 100 })).toEqual([]);
    expect(tornadoStore.getState().settings).toEqual({
      ...DEFAULT_TORNADO_SETTINGS,
      amount: 0.2,
      maxSeeds: 100,
    });
  });
});
