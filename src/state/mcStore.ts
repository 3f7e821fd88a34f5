/**
 * The Monte Carlo's stated precision and cap, the pinned baseline, and the streaming bands of the
 * scenario on screen and of the baseline. The settings are display settings, not
 * engine fields: they live in the address (`mcp=` precision in points, `mcn=` cap, `base=` the
 * baseline's scenario, encoded as `s=` is), each left out at its default, so a link from before
 * opens with the defaults and its recorded run unchanged. clusterRunner.ts fills the bands.
 */
import { useStore } from "zustand";
import { createStore } from "zustand/vanilla";
import {
  checkSetting,
  readSettingParam,
  settingParam,
  storedDefault,
  toShown,
  toStored,
} from "../link/displaySettings.ts";
import { LinkError } from "../link/linkError.ts";
import { decodeScenarioParam, encodeScenarioParam } from "../link/scenarioLink.ts";
import type { BadputSamples, McSnapshot } from "../sim/monteCarlo/mcStream.ts";
import type { Scenario } from "../sim/scenario/index.ts";
import type { MonteCarloResult } from "../sim/types.ts";
import { registerAddressPart, requestAddressWrite } from "./address.ts";
import { type AppState, appStore } from "./store.ts";

/** The default precision (a fraction) and cap: the display settings' table's (src/link/displaySettings.ts). */
export const DEFAULT_PRECISION = storedDefault("mcPrecision");
export const DEFAULT_CAP = storedDefault("mcCap");

/**
 * A stopped Monte Carlo's per-run badput shares and the scenario they are for (its run i is seed
 * (scenario.seed + i) >>> 0): what the comparison pairs by seed. Views into the stream's columns
 * (McStream.badputSamples: at most cap × categories × policies doubles, which the stream holds
 * anyway), kept only while that stream is the job's.
 */
export interface BadputRuns {
  scenario: Scenario;
  samples: BadputSamples;
}

/** A band as it streams in: the snapshot and the scenario it is for (never shown for another). */
export interface Band {
  scenario: Scenario;
  snapshot: McSnapshot;
}

export interface McState {
  /** Stop when every policy's 95 % half-width is at most this (a fraction: 0.005 = ±0.5 point). */
  precision: number;
  cap: number;
  /** The pinned scenario, or null. */
  baseline: Scenario | null;
  /** The band of the scenario on screen (appStore.scenario), as far as it has run. */
  current: Band | null;
  /** The baseline's band, as far as it has run. */
  base: Band | null;
  /** The baseline's full summary (every metric, the badput shares), once its Monte Carlo has stopped. */
  baseResult: MonteCarloResult | null;
  /** The baseline's per-run badput shares, set with baseResult (the comparison's badput errors). */
  baseBadput: BadputRuns | null;
  /** The per-run badput shares of the scenario on screen, set with appStore's mc once its Monte Carlo has stopped. */
  currentBadput: BadputRuns | null;
  /** Why the baseline's Monte Carlo failed, if it did. */
  baseError: string | null;
  /**
   * The baseline's run at its own seed, with its trace, for the timeline stacked under the one on
   * screen (clusterRunner.ts): tagged with the very baseline it was asked for, never shown for another.
   */
  baseRun: { scenario: Scenario; run: NonNullable<AppState["run"]> } | null;
  /** Why the baseline's recorded run failed, if it did (its Monte Carlo may still stand). */
  baseRunError: string | null;
  setPrecision(precision: number): void;
  setCap(cap: number): void;
  /** Pin the scenario on screen as the baseline. */
  pin(): void;
  unpin(): void;
}

export const mcStore = createStore<McState>()((set) => ({
  precision: DEFAULT_PRECISION,
  cap: DEFAULT_CAP,
  baseline: null,
  current: null,
  base: null,
  baseResult: null,
  baseBadput: null,
  currentBadput: null,
  baseError: null,
  baseRun: null,
  baseRunError: null,
  setPrecision: (precision) => set({ precision: checkPrecision(precision) }),
  setCap: (cap) => set({ cap: checkSetting("mcCap", cap) }),
  pin: () => set({ baseline: appStore.getState().scenario }),
  unpin: () =>
    set({
      baseline: null,
      base: null,
      baseResult: null,
      baseBadput: null,
      baseError: null,
      baseRun: null,
      baseRunError: null,
    }),
}));

/** Registers the Monte Carlo's parts (mcp=, mcn=, base=) and writes the address on their changes (startState.ts). */
export function startMcAddress(): void {
  // Two parts, judged apart: a bad mcn= keeps a good mcp= and back.
  registerAddressPart({
    keys: ["mcp"],
    read: (values) => {
      mcStore.setState({ precision: parsePrecisionParam(values.get("mcp")) });
    },
    write: () => ({ mcp: precisionParam(mcStore.getState().precision) }),
  });
  registerAddressPart({
    keys: ["mcn"],
    read: (values) => {
      mcStore.setState({ cap: parseCapParam(values.get("mcn")) });
    },
    write: () => {
      const { cap } = mcStore.getState();
      return { mcn: settingParam("mcCap", cap) };
    },
  });
  registerAddressPart({
    keys: ["base"],
    read: (values) => {
      mcStore.setState({ baseline: parseBaselineParam(values.get("base")) });
    },
    write: () => {
      const { baseline } = mcStore.getState();
      return { base: baseline ? encodeScenarioParam(baseline) : "" };
    },
  });
  mcStore.subscribe((s, prev) => {
    // A pin, an unpin and a settings change are each a history entry: Back undoes them.
    if (s.precision !== prev.precision || s.cap !== prev.cap || s.baseline !== prev.baseline)
      requestAddressWrite("push");
  });
}

export function useMcStore<T>(selector: (s: McState) => T): T {
  return useStore(mcStore, selector);
}

/** A precision (a fraction) as the store keeps it, or a RangeError naming the setting and its range in points. */
export function checkPrecision(precision: number): number {
  return toStored("mcPrecision", checkSetting("mcPrecision", toShown("mcPrecision", precision)));
}

/** `mcp=`: the precision in points; absent, the default. */
export function parsePrecisionParam(v: string | undefined): number {
  return toStored("mcPrecision", readSettingParam("mcPrecision", v));
}

/** `mcn=`: the cap on runs; absent, the default. */
export function parseCapParam(v: string | undefined): number {
  return readSettingParam("mcCap", v);
}

/** The precision in points as its reader accepts it; "" at the default. */
export function precisionParam(precision: number): string {
  return settingParam("mcPrecision", toShown("mcPrecision", precision));
}

/** `base=`: the pinned baseline, a scenario as `s=` writes one; its refusal names base=, not s=. */
export function parseBaselineParam(b: string | undefined): Scenario | null {
  if (!b) return null;
  try {
    return decodeScenarioParam(b);
  } catch (e) {
    if (!(e instanceof LinkError)) throw e;
    throw new LinkError(
      `The link's pinned baseline (base=) was not used: ${e.message.replace(/^The link's /, "its ")}`,
    );
  }
}
