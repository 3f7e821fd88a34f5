import { describe, expect, it, vi } from "vitest";
import { MONTE_CARLO_BUDGET_FAILURES } from "../sim/monteCarlo/budget.ts";
import { DEFAULT_SCENARIO } from "../sim/scenario/index.ts";
import { DEFAULT_TORNADO_SETTINGS } from "../sim/sweep/tornado.ts";
import { estimatedSeconds, LINK_RUN_ASK_SECONDS, linkRunAsks } from "./linkRunCost.ts";
import { tornadoCost, tornadoStore } from "./tornadoStore.ts";

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

describe("a tornado link's run on open", () => {
  it("asks when its most work, under the failure budget, passes the stated time; a small one runs", () => {
    const most = tornadoCost(DEFAULT_SCENARIO, DEFAULT_TORNADO_SETTINGS);
    expect(most).toBeLessThan(MONTE_CARLO_BUDGET_FAILURES);
    expect(estimatedSeconds(most)).toBeGreaterThan(LINK_RUN_ASK_SECONDS);
    expect(linkRunAsks(most)).toBe(true);
    expect(linkRunAsks(tornadoCost(DEFAULT_SCENARIO, { ...DEFAULT_TORNADO_SETTINGS, maxSeeds: 20 }))).toBe(
      false,
    );
  });
});

describe("a tornado link's wait for the page", () => {
  it("is not run over settings changed while it waited; left alone, it goes on to ask", async () => {
    const { readAddress } = await import("./address.ts");
    const { encodeScenarioHash } = await import("../link/scenarioLink.ts");
    const { tornadoParam } = await import("../link/tornadoLink.ts");
    const { noteRunCommitted } = await import("./pageWork.ts");
    // The defaults at their seed cap ask first (above): whether the link went ahead shows as a confirm.
    const link = `${encodeScenarioHash(DEFAULT_SCENARIO)}&v=cluster&tn=${tornadoParam({ ...DEFAULT_TORNADO_SETTINGS, run: true })}`;
    vi.useFakeTimers();
    try {
      readAddress(link);
      await vi.advanceTimersByTimeAsync(500);
      tornadoStore.getState().setSettings({ amount: 0.2 });
      noteRunCommitted();
      await vi.advanceTimersByTimeAsync(5000);
      expect(tornadoStore.getState()).toMatchObject({ status: "idle", confirm: null });

      readAddress(link);
      await vi.waitFor(() => expect(tornadoStore.getState().confirm).not.toBeNull(), { timeout: 10_000 });
      await vi.advanceTimersByTimeAsync(10);
      tornadoStore.getState().answer(false);
    } finally {
      vi.useRealTimers();
    }
  });
});
