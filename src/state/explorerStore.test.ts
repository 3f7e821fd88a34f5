import { describe, expect, it, vi } from "vitest";
import { sweepAxisBounds } from "../sim/sweep/index.ts";
import { explorerStore } from "./explorerStore.ts";
import { startState } from "./startState.ts";
import { appStore } from "./store.ts";

// The page's parts, registered as main.tsx registers them.
startState();

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

  it("refuses a range past the axis's bounds by name, with the bounds, keeping the old (a To of 1e308)", () => {
    const s = () => explorerStore.getState();
    s().setSweepOptions({ axis: "gpus" });
    expect(s().setSweepRange({ from: 2000, to: 8000 })).toEqual([]);
    const [problem] = s().setSweepRange({ from: 2000, to: 1e308 });
    const b = sweepAxisBounds(appStore.getState().scenario, "gpus");
    expect(b?.hi).toBe(1_000_000);
    expect(problem).toMatch(/^Sweep from \/ to: must be within \[\d+, 1000000\] on this axis\.$/);
    expect(s().sweep.range).toEqual({ from: 2000, to: 8000 });
    s().setSweepOptions({ axis: "slow.evictAfterMinutes" });
    expect(s().setSweepRange({ from: 1, to: 5000 })[0]).toMatch(/within \[0, 1440\]/);
    expect(s().sweep.range).toBeNull();
  });
});

/**
 * A link to a sweep past the Monte Carlo budget: a million expected failures a run (the largest
 * the validator accepts), 50 points × 2,000 seeds, run on open.
 */
async function heavySweepLink(): Promise<string> {
  const { encodeScenarioHash } = await import("../link/scenarioLink.ts");
  const { sweepParam } = await import("../link/sweepLink.ts");
  const { parseScenario } = await import("../sim/scenario/index.ts");
  const heavy = parseScenario({
    cluster: { gpus: 1_000_000, gpusPerHost: 1, replicas: 1000 },
    training: { days: 100 },
    failures: { perHostDay: 0.01 },
  });
  const sw = sweepParam({ axis: "gpus", points: 50, seeds: 2000, range: null, run: true });
  return `${encodeScenarioHash(heavy)}&v=cluster&sw=${sw}`;
}

describe("a link's sweep", () => {
  // First in this file: the page's first run is committed once (pageWork.ts's module state).
  it("waits for the page's first run, and is not run over settings changed meanwhile", async () => {
    const { readAddress } = await import("./address.ts");
    const { noteRunCommitted } = await import("./pageWork.ts");
    // Past the budget, so a link's sweep that goes ahead asks first (confirm), in Node as in a page.
    const link = await heavySweepLink();
    vi.useFakeTimers();
    try {
      readAddress(link);
      await vi.advanceTimersByTimeAsync(500);
      expect(explorerStore.getState().sweep.confirm).toBeNull();
      explorerStore.getState().setSweepOptions({ points: 12 });
      noteRunCommitted();
      await vi.advanceTimersByTimeAsync(5000);
      expect(explorerStore.getState().sweep).toMatchObject({ status: "idle", confirm: null, points: 12 });
    } finally {
      vi.useRealTimers();
    }
  });

  it("past the Monte Carlo budget asks before running, saying the cost; answered no, nothing runs", async () => {
    const { readAddress } = await import("./address.ts");
    const { MONTE_CARLO_BUDGET_FAILURES } = await import("../sim/monteCarlo/budget.ts");
    // The page has drawn its first run: a link's work waits for that (linkRun.ts).
    const { noteRunCommitted } = await import("./pageWork.ts");
    noteRunCommitted();
    readAddress(await heavySweepLink());
    // The link's work starts after the page's next frame or task: on a loaded machine, later.
    await vi.waitFor(() => expect(explorerStore.getState().sweep.confirm).not.toBeNull());
    const { sweep } = explorerStore.getState();
    expect(sweep.status).toBe("idle");
    expect(sweep.progress).toBeNull();
    expect(sweep.confirm?.failures).toBeGreaterThan(MONTE_CARLO_BUDGET_FAILURES);
    explorerStore.getState().answerSweep(false);
    expect(explorerStore.getState().sweep).toMatchObject({ status: "idle", confirm: null });
  });
});

describe("a link's cause axis", () => {
  it("opens on a scenario that lists the cause, and is refused by name on one that does not", async () => {
    const { readAddress, addressStore } = await import("./address.ts");
    const { encodeScenarioHash } = await import("../link/scenarioLink.ts");
    const { sweepParam } = await import("../link/sweepLink.ts");
    const { parseScenario } = await import("../sim/scenario/index.ts");
    const two = parseScenario({
      failures: {
        causes: [
          { name: "Host", share: 9, scope: "host" },
          { name: "Bug", share: 1, scope: "job" },
        ],
      },
    });
    const sw = sweepParam({ axis: "cause.1.share", points: 6, seeds: 30, range: null, run: false });
    expect(readAddress(`${encodeScenarioHash(two)}&v=cluster&sw=${sw}`)).toBeNull();
    expect(explorerStore.getState().sweep).toMatchObject({ axis: "cause.1.share", points: 6, seeds: 30 });
    // The same sw= on the default scenario (no causes): refused, naming the axis and what the scenario lists.
    const problem = readAddress(`v=cluster&sw=${sw}`);
    expect(problem).toBe(
      "The link's sweep settings (sw=) are invalid: axis cause.1.share moves failures.causes[1], but the scenario lists no causes.",
    );
    expect(addressStore.getState().linkError).toBe(problem);
    // The refusal keeps the sweep on screen, except the cause axis the new scenario lacks (it goes
    // back to the default axis, as any edit removing the cause does).
    expect(explorerStore.getState().sweep).toMatchObject({ axis: "gpus", points: 6, seeds: 30 });
  });

  it("goes back to the default axis when an edit removes the cause it sweeps", async () => {
    const { appStore } = await import("./store.ts");
    const { parseScenario } = await import("../sim/scenario/index.ts");
    const three = parseScenario({
      failures: {
        causes: [
          { name: "A", share: 1, scope: "host" },
          { name: "B", share: 1, scope: "host" },
          { name: "C", share: 1, scope: "rack" },
        ],
      },
    });
    appStore.setState({ scenario: three });
    explorerStore.getState().setSweepOptions({ axis: "cause.2.scope" });
    appStore.setState({
      scenario: { ...three, failures: { ...three.failures, causes: three.failures.causes.slice(0, 2) } },
    });
    expect(explorerStore.getState().sweep.axis).toBe("gpus");
  });
});

describe("a link's sweep under the budget but past the stated time", () => {
  it("asks first for the Greyhound preset's evict-after sweep (27 s on one core), saying its seconds", async () => {
    const { readAddress } = await import("./address.ts");
    const { noteRunCommitted } = await import("./pageWork.ts");
    const { encodeScenarioHash } = await import("../link/scenarioLink.ts");
    const { sweepParam } = await import("../link/sweepLink.ts");
    const { parseScenario } = await import("../sim/scenario/index.ts");
    const { presetById } = await import("../sim/presets.ts");
    const { LINK_RUN_ASK_SECONDS } = await import("./linkRunCost.ts");
    const { MONTE_CARLO_BUDGET_FAILURES } = await import("../sim/monteCarlo/budget.ts");
    noteRunCommitted();
    const greyhound = parseScenario(presetById("slow-greyhound")?.scenario);
    const sw = sweepParam({ axis: "slow.evictAfterMinutes", points: 20, seeds: 200, range: null, run: true });
    readAddress(`${encodeScenarioHash(greyhound)}&v=cluster&sw=${sw}`);
    await vi.waitFor(() => expect(explorerStore.getState().sweep.confirm).not.toBeNull());
    const { sweep } = explorerStore.getState();
    expect(sweep.status).toBe("idle");
    expect(sweep.confirm?.failures).toBeLessThan(MONTE_CARLO_BUDGET_FAILURES);
    expect(sweep.confirm?.seconds).toBeGreaterThan(LINK_RUN_ASK_SECONDS);
    // A link that shows its chart shows it 0–100 % unless it says `zoom` (as links did before the
    // default zoom); answered no, nothing runs.
    expect(sweep.zoom).toBe(false);
    explorerStore.getState().answerSweep(false);
    expect(explorerStore.getState().sweep).toMatchObject({ status: "idle", confirm: null });
    // A link with no chart leaves the zoom to the curves; one that says `zoom` is zoomed.
    readAddress(
      `${encodeScenarioHash(greyhound)}&v=cluster&sw=${sweepParam({ axis: "gpus", points: 7, seeds: 20, range: null, run: false })}`,
    );
    expect(explorerStore.getState().sweep.zoom).toBeNull();
  });
});
