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

describe("a link's sweep", () => {
  it("past the Monte Carlo budget asks before running, saying the cost; answered no, nothing runs", async () => {
    const { readAddress } = await import("./address.ts");
    const { encodeScenarioHash } = await import("../link/scenarioLink.ts");
    const { sweepParam } = await import("../link/sweepLink.ts");
    const { parseScenario } = await import("../sim/scenario.ts");
    const { MONTE_CARLO_BUDGET_FAILURES } = await import("../sim/budget.ts");
    // A million expected failures a run (the largest the validator accepts), 50 points × 2,000 seeds.
    const heavy = parseScenario({
      cluster: { gpus: 1_000_000, gpusPerHost: 1, replicas: 1000 },
      training: { days: 100 },
      failures: { perHostDay: 0.01 },
    });
    const sw = sweepParam({ axis: "gpus", points: 50, seeds: 2000, range: null, run: true });
    readAddress(`${encodeScenarioHash(heavy)}&v=cluster&sw=${sw}`);
    await new Promise((r) => setTimeout(r, 20));
    const { sweep } = explorerStore.getState();
    expect(sweep.status).toBe("idle");
    expect(sweep.progress).toBeNull();
    expect(sweep.confirm?.failures).toBeGreaterThan(MONTE_CARLO_BUDGET_FAILURES);
    explorerStore.getState().answerSweep(false);
    expect(explorerStore.getState().sweep).toMatchObject({ status: "idle", confirm: null });
  });
});
