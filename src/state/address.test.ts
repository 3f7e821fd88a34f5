/**
 * The address as the app's state: every key of every registered part round-trips, and a bad
 * value of any key is reported, naming it, while that part falls back to its defaults.
 */
import { describe, expect, it } from "vitest";
import { readHash } from "../link/hashParams.ts";
import { DEFAULT_LAB_SETTINGS, encodeLabPayload } from "../link/labLink.ts";
import { encodeLinkPayload, encodeScenarioHash } from "../link/scenarioLink.ts";
import { DEFAULT_STEP_SETTINGS } from "../link/stepLink.ts";
import { DEFAULT_SCENARIO, parseScenario } from "../sim/scenario/index.ts";
import { DEFAULT_TORNADO_SETTINGS } from "../sim/sweep/tornado.ts";
import { linkPreset } from "../step/collectiveCost.ts";
import { DEFAULT_TRAIN } from "../train/config.ts";
import type { TrainProgress } from "../train/session.ts";
import { ADDRESS_KEYS, addressStore, composeAddress, readAddress, registeredAddressKeys } from "./address.ts";
import { explorerStore } from "./explorerStore.ts";
import { gpuPriceStore } from "./gpuPrice.ts";
import { labStore } from "./labStore.ts";
import { mcStore } from "./mcStore.ts";
import { startState } from "./startState.ts";
import { stepSettings, stepStore } from "./stepStore.ts";
import { appStore } from "./store.ts";
import { storyBucketStore } from "./storyBucket.ts";
import { tornadoStore } from "./tornadoStore.ts";
import { trainStore } from "./trainStore.ts";

// The page's parts, registered as main.tsx registers them.
startState();

/** Every store's address-carried state, for comparing before and after a round trip. */
function snapshot() {
  const { tab, scenario, chapter, hidden } = appStore.getState();
  const { form, fault, faultShownFor, faultWanted } = labStore.getState();
  return {
    tab,
    scenario,
    chapter,
    hidden,
    bucket: storyBucketStore.getState().cap,
    gpuPrice: gpuPriceStore.getState().price,
    window: explorerStore.getState().window,
    logKinds: explorerStore.getState().logKinds,
    sweep: (({ axis, points, seeds, range }) => ({ axis, points, seeds, range }))(
      explorerStore.getState().sweep,
    ),
    tornado: tornadoStore.getState().settings,
    step: stepSettings(stepStore().getState()),
    lab: { form, fault },
    /** The fault demo on screen is the plan's, or a link asked for it (lfd=1). */
    faultDemo: faultWanted || (faultShownFor !== null && faultShownFor === fault),
    labResults: labStore.getState().results.map(({ id: _, ...r }) => r),
    train: trainStore.getState().config,
    trainMode: trainStore.getState().mode,
    mc: (({ precision, cap, baseline }) => ({ precision, cap, baseline }))(mcStore.getState()),
  };
}

const DEFAULTS = {
  tab: "story",
  scenario: DEFAULT_SCENARIO,
  chapter: "one-failure",
  hidden: [],
  bucket: 25,
  gpuPrice: 2,
  window: null,
  logKinds: ["failure", "slow", "eviction"],
  sweep: { axis: "gpus", points: 20, seeds: 200, range: null },
  tornado: DEFAULT_TORNADO_SETTINGS,
  step: DEFAULT_STEP_SETTINGS,
  lab: DEFAULT_LAB_SETTINGS,
  faultDemo: false,
  labResults: [],
  train: DEFAULT_TRAIN,
  trainMode: "shared",
  mc: { precision: 0.005, cap: 2000, baseline: null },
};

describe("the address", () => {
  it("has a registered part for every key a link may hold", () => {
    expect(new Set(registeredAddressKeys())).toEqual(new Set(Object.keys(ADDRESS_KEYS)));
  });

  it("round-trips every key of every part", () => {
    appStore.setState({
      tab: "story",
      scenario: parseScenario({ cluster: { replicas: 24 }, seed: 7 }),
      chapter: "predict",
      hidden: ["cluster.gpus", "presets"],
    });
    storyBucketStore.setState({ cap: 512 });
    gpuPriceStore.setState({ price: 3.5 });
    explorerStore.setState({ window: [12.3, 4567.8] });
    explorerStore.getState().setLogKinds(["eviction", "slow"]);
    explorerStore.getState().setSweepOptions({ axis: "rejoinSeconds", points: 7, seeds: 30 });
    explorerStore.getState().setSweepRange({ from: 10, to: 90 });
    expect(tornadoStore.getState().setSettings({ amount: 0.3, precision: 0.02, maxSeeds: 100 })).toEqual([]);
    const step = stepStore().getState();
    step.pickPreset("llama3-8b");
    step.setCapMb(210);
    step.setFirstBucketMb(25);
    step.setParallel({ mode: "hsdp", replicas: 16, missingReplica: true, algorithm: "halvingDoubling" });
    step.setLink("interLink", { ...linkPreset("roce-400"), alpha: 12e-6 });
    step.setCompute({ optimizerMs: 9 });
    labStore
      .getState()
      .setForm({ mode: "separate", devices: 8, bytesPerDevice: 4096, algorithm: "all-gather" });
    labStore.getState().setFault({ devices: 9, victim: 7, killStep: null, slow: false });
    // The fault demo ran for that plan and is on screen: lfd=1.
    labStore.setState({ faultShownFor: labStore.getState().fault });
    // A row that came with a link, as the table keeps it (a wrong one: its error is NaN).
    labStore.getState().setLinkedResults([
      {
        mode: "shared",
        algorithm: "ring",
        devices: 4,
        bytesPerDevice: 1024 * 1024,
        seconds: 0.00123,
        // As the lab computes them (src/gpu/collectives.ts): S / t, and × 2(n−1)/n for all-reduce.
        algbw: (1024 * 1024) / 0.00123 / 1e9,
        busbw: ((1024 * 1024) / 0.00123 / 1e9) * 1.5,
        efficiency: 0.42,
        verified: false,
        maxAbsError: Number.NaN,
        toleranceAtWorst: 1e-6,
        timer: "wall-clock",
        reps: 5,
        submits: 12,
        trafficBytes: 1 << 24,
        on: "Software adapter (swiftshader)",
      },
    ]);
    const config = { ...DEFAULT_TRAIN, hidden: 128, replicas: 6, seed: 9, policies: ["sqrt" as const] };
    // A finished run of these settings in this mode is on the training view: tr=1.
    trainStore.setState({
      config,
      mode: "separate",
      progress: { finished: true, stopped: false } as TrainProgress,
      ranConfig: config,
      ranMode: "separate",
    });
    mcStore.setState({
      precision: 0.001,
      cap: 300,
      baseline: parseScenario({ cluster: { replicas: 48 }, seed: 3 }),
    });
    const state = snapshot();
    const hash = composeAddress();
    expect(new Set(readHash(hash).keys())).toEqual(new Set(Object.keys(ADDRESS_KEYS)));

    expect(readAddress("")).toBeNull();
    expect(snapshot()).toEqual(DEFAULTS);

    expect(readAddress(hash)).toBeNull();
    expect(snapshot()).toEqual(state);
    expect(composeAddress()).toBe(hash);
  });

  it("opens format-1 links as they always opened", () => {
    expect(readAddress("#s=1.q64FAA&v=lab")).toBeNull();
    expect(snapshot()).toEqual({ ...DEFAULTS, tab: "lab" });
  });

  it("opens the story at a bare address, and the Cluster view for a scenario that names no view", () => {
    expect(readAddress("")).toBeNull();
    expect(snapshot().tab).toBe("story");
    expect(readAddress("#s=1.q64FAA")).toBeNull();
    expect(snapshot().tab).toBe("cluster");
    expect(readAddress(encodeScenarioHash(parseScenario({ seed: 3 })))).toBeNull();
    expect(snapshot().tab).toBe("cluster");
    // A broken scenario still opens the view its link meant.
    expect(readAddress("#s=1.broken!")).toMatch(/could not be decoded/);
    expect(snapshot().tab).toBe("cluster");
    expect(readAddress("#v=story&ch=predict")).toBeNull();
    expect(snapshot()).toMatchObject({ tab: "story", chapter: "predict" });
    // The view is always named, the default one too; the chapter only on the story.
    appStore.setState({ tab: "cluster" });
    expect(readHash(composeAddress()).get("v")).toBe("cluster");
    expect(readHash(composeAddress()).has("ch")).toBe(false);
  });

  const opensWithError = (hash: string, message: RegExp) => {
    readAddress(encodeScenarioHash(parseScenario({ seed: 5 })));
    expect(readAddress(hash)).toMatch(message);
    expect(addressStore.getState().linkError).toMatch(message);
  };

  it("reports a bad scenario and keeps the one on screen, applying the rest of the link", () => {
    opensWithError("#s=1.broken!&v=step", /could not be decoded/);
    expect(snapshot().scenario).toEqual(parseScenario({ seed: 5 }));
    expect(snapshot().tab).toBe("step");
    opensWithError(`#s=${encodeLinkPayload({ cluster: { replicas: 7 } })}`, /cluster\.replicas/);
    opensWithError("#s=9.abc", /format tag is "9"/);
  });

  it("opens a scenario with any selection of strategies (the page draws each one it selects)", () => {
    for (const policies of [["synchronous", "ftHsdp", "inMemory"], ["hotSpare"], ["ftHsdp", "synchronous"]]) {
      expect(readAddress(`#v=cluster&s=${encodeLinkPayload({ policies })}`)).toBeNull();
      expect(snapshot().scenario.policies).toEqual(policies);
    }
  });

  it("opens a link that adds strategies beside synchronous and FT-HSDP, in its order", () => {
    for (const policies of [
      ["synchronous", "ftHsdp", "inMemory", "hotSpare"],
      ["ftHsdp", "synchronous", "hotSpare"],
    ]) {
      expect(readAddress(`#v=cluster&s=${encodeLinkPayload({ policies })}`)).toBeNull();
      expect(snapshot().scenario.policies).toEqual(policies);
    }
  });

  it("reports a bad view, a bad window, an unknown key and an oversized address", () => {
    // Each refusal keeps what was on screen: here, the view and chapter the last link opened.
    opensWithError("#v=stepp", /view "stepp"; the views are story, cluster, step, lab/);
    expect(snapshot().tab).toBe("cluster");
    opensWithError("#v=story&ch=nope", /chapter "nope"/);
    expect(snapshot()).toMatchObject({ tab: "story", chapter: "one-failure" });
    opensWithError("#w=9,3", /w=9,3/);
    expect(snapshot().window).toBeNull();
    opensWithError("#v=lab&zz=1", /"zz="/);
    expect(snapshot().tab).toBe("lab");
    opensWithError(`#s=${"A".repeat(9000)}`, /at most 8192/);
    expect(snapshot().scenario).toEqual(parseScenario({ seed: 5 }));
  });

  it("refuses a key given twice by name and uses neither value", () => {
    const a = encodeScenarioHash(parseScenario({ cluster: { replicas: 16 } })).slice(1);
    const b = encodeScenarioHash(parseScenario({ cluster: { replicas: 24 } })).slice(1);
    opensWithError(`#v=cluster&${a}&${b}`, /"s=" more than once/);
    expect(snapshot()).toMatchObject({ tab: "cluster", scenario: DEFAULT_SCENARIO });
    opensWithError("#v=story&ch=predict&ch=one-failure", /"ch=" more than once/);
    expect(snapshot().chapter).toBe("one-failure");
  });

  it("reports bad step and lab settings, and keeps what the last link showed (here, their defaults)", () => {
    stepStore().getState().setCapMb(100);
    opensWithError("#v=step&st=2.AAAAAAAA", /step settings could not be decoded: .*integrity check/);
    expect(snapshot().step).toEqual(DEFAULT_STEP_SETTINGS);
    expect(snapshot().tab).toBe("step");
    const lab = DEFAULT_LAB_SETTINGS;
    opensWithError("#v=lab&lab=1.abc", /lab settings have format tag "1"/);
    expect(snapshot().lab).toEqual(lab);
    // Well formed, but past the lab's memory budget: refused by name, not silently replaced.
    const huge = encodeLabPayload({ form: { devices: 16, bytesPerDevice: 64 * 2 ** 20 } });
    opensWithError(`#v=lab&lab=${huge}`, /lab settings \(lab=\) were not used: Devices × Size \/ device/);
    expect(snapshot().lab).toEqual(lab);
    // The training run's readable t= carries a check: a changed seed is refused, not another run.
    trainStore.setState({ config: { ...DEFAULT_TRAIN, seed: 7 } });
    const sealed = readHash(composeAddress()).get("t") ?? "";
    expect(sealed).toContain("s7");
    opensWithError(
      `#v=train&t=${sealed.replace("s7", "s8")}`,
      /training settings \(t=\) fail their integrity check/,
    );
    expect(snapshot().train).toEqual(DEFAULT_TRAIN);
  });
});
