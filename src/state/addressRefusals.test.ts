/**
 * A refusal names the key and changes nothing else. Each key is judged on its own, a
 * refused key keeps what was on screen (the last good state, not the defaults), a run a link asks
 * for is not started on a state the link did not mean, and what is used with a correction is said.
 */
import { describe, expect, it, vi } from "vitest";
import { encodeLinkPayload, encodeScenarioParam } from "../link/scenarioLink.ts";
import { encodeStepParam } from "../link/stepLink.ts";
import { sweepParam } from "../link/sweepLink.ts";
import { parseScenario } from "../sim/scenario/index.ts";
import { addressRefused, addressStore, readAddress } from "./address.ts";
import { explorerStore } from "./explorerStore.ts";
import { gpuPriceStore } from "./gpuPrice.ts";
import { mcStore } from "./mcStore.ts";
import { startState } from "./startState.ts";
import { stepSettings, stepStore } from "./stepStore.ts";
import { appStore } from "./store.ts";
import { trainStore } from "./trainStore.ts";

// The page's parts, registered as main.tsx registers them.
startState();

const good = encodeScenarioParam(parseScenario({ cluster: { replicas: 16 } }));
/** One character changed: the integrity check refuses it. */
const altered = good.slice(0, -3) + (good.at(-3) === "A" ? "B" : "A") + good.slice(-2);

describe("a refused key keeps the last good state", () => {
  it("judges mcp= and mcn= apart: a bad one keeps the other's good value", () => {
    readAddress("#v=cluster");
    expect(readAddress("#v=cluster&mcp=1&mcn=5")).toMatch(/mcn=/);
    expect(mcStore.getState().precision).toBe(0.01);
    expect(readAddress("#v=cluster&mcp=99&mcn=500")).toMatch(/mcp=/);
    expect(mcStore.getState().cap).toBe(500);
    // The refused mcp= kept the precision on screen, not the default.
    expect(mcStore.getState().precision).toBe(0.01);
  });

  it("judges tm= and t= apart, and refuses tr= other than 1", () => {
    readAddress("#v=train");
    const seeded = trainStore.getState().config;
    expect(readAddress("#v=train&tm=gpu")).toMatch(/training mode \(tm=\) "gpu"/);
    expect(trainStore.getState().config).toBe(seeded);
    expect(readAddress("#v=train&tr=2")).toMatch(/tr= \(train on open\) must be 1 or absent; got "2"/);
  });

  it("names base= when the pinned baseline is refused, not the link's scenario", () => {
    const problem = readAddress(`#v=cluster&base=${altered}`);
    expect(problem).toMatch(
      /^The link's pinned baseline \(base=\) was not used: its scenario could not be decoded/,
    );
    expect(problem).not.toMatch(/The link's scenario/);
  });

  it("keeps each part's state when a link pasted into the open tab refuses its key", () => {
    stepStore().getState().setCapMb(100);
    const st = encodeStepParam(stepSettings(stepStore().getState())).param;
    const keys: Record<string, string> = { v: "cluster", s: good, gph: "3.5", mcp: "2", w: "100,200", st };
    const link = (bad: Record<string, string>) =>
      `#${Object.entries({ ...keys, ...bad })
        .map(([k, v]) => `${k}=${v}`)
        .join("&")}`;
    expect(readAddress(link({}))).toBeNull();
    const step = stepSettings(stepStore().getState());
    const scenario = appStore.getState().scenario;
    for (const [bad, message] of [
      [{ s: altered }, /scenario could not be decoded/],
      [{ mcp: "abc" }, /mcp=/],
      [{ w: "5,1" }, /w=5,1/],
      [{ gph: "-1" }, /gph=/],
      [{ st: "2.AAAAAAAA" }, /step settings/],
      [{ v: "nope" }, /view "nope"/],
    ] as const) {
      expect(readAddress(link(bad))).toMatch(message);
      expect(appStore.getState().scenario).toEqual(scenario);
      expect(appStore.getState().tab).toBe("cluster");
      expect(mcStore.getState().precision).toBe(0.02);
      expect(gpuPriceStore.getState().price).toBe(3.5);
      expect(explorerStore.getState().window).toEqual([100, 200]);
      expect(stepSettings(stepStore().getState())).toEqual(step);
    }
  });
});

describe("a run a link asks for runs only on the state the link meant", () => {
  it("does not run sw=…,run when the link's s= was refused", async () => {
    vi.useFakeTimers();
    try {
      const runSweep = vi.fn();
      const real = explorerStore.getState().runSweep;
      explorerStore.setState({ runSweep });
      const sw = sweepParam({ axis: "gpus", points: 4, seeds: 20, range: null, run: true });
      const problem = readAddress(`#v=cluster&s=${altered}&sw=${sw}`);
      expect(problem).toMatch(/sweep \(sw=\) was not run: its scenario \(s=\) was refused/);
      expect(addressRefused("s")).toBe(true);
      vi.runAllTimers();
      expect(runSweep).not.toHaveBeenCalled();
      explorerStore.setState({ runSweep: real });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("nothing passes in silence", () => {
  it("names a piece with no '=' and an unknown key, cut", () => {
    expect(readAddress("#v=cluster&cluster")).toMatch(/"cluster", which is not key=value/);
    expect(readAddress(`#v=cluster&${"k".repeat(500)}=1`)).toMatch(/"k{40}="/);
  });

  it("reads v=CLUSTER as the Cluster view, and says so", () => {
    expect(readAddress("#v=CLUSTER")).toBeNull();
    expect(appStore.getState().tab).toBe("cluster");
    expect(addressStore.getState().linkNote).toMatch(/v=CLUSTER was read as v=cluster/);
  });

  it("refuses a sweep range past its axis's bounds, naming the range it can sweep", () => {
    const sw = (from: number, to: number) =>
      sweepParam({ axis: "gpus", points: 6, seeds: 20, range: { from, to }, run: false });
    expect(readAddress(`#v=cluster&sw=${sw(2000, 8000)}`)).toBeNull();
    expect(readAddress(`#v=cluster&sw=${sw(1, 1e308)}`)).toMatch(
      /sw=\) are invalid: the range 1:1\.00e\+308 passes what the axis gpus can sweep for this scenario, 96 to [\d,]+/,
    );
    // The sweep on screen is kept.
    expect(explorerStore.getState().sweep.range).toEqual({ from: 2000, to: 8000 });
  });

  it("refuses a window whose end reads as Infinity", () => {
    explorerStore.setState({ window: [100, 200] });
    expect(readAddress(`#v=cluster&w=1,${"9".repeat(400)}`)).toMatch(/finite seconds/);
    expect(explorerStore.getState().window).toEqual([100, 200]);
  });

  it("says when a window is widened to 10 s or cut to the run", () => {
    expect(readAddress("#v=cluster&w=0.01,0.04")).toBeNull();
    expect(explorerStore.getState().window).toEqual([0.01, 10.01]);
    expect(addressStore.getState().linkNote).toMatch(
      /w=0\.01,0\.04 was shown as 0\.0,10\.0: a window is at least 10 s wide/,
    );
    expect(readAddress("#v=cluster&w=100,99999999")).toBeNull();
    expect(explorerStore.getState().window).toEqual([100, 30 * 86_400]);
    expect(addressStore.getState().linkNote).toMatch(/inside the run's 0–2,592,000 s/);
  });

  it("says an empty s= opens the default scenario", () => {
    expect(readAddress("#v=cluster&s=")).toBeNull();
    expect(addressStore.getState().linkNote).toMatch(/s= is empty: it opens the default scenario/);
  });

  it("opens a good scenario with no note", () => {
    expect(readAddress(`#v=cluster&s=${encodeLinkPayload({ seed: 4 })}`)).toBeNull();
    expect(addressStore.getState().linkNote).toBeNull();
  });
});
