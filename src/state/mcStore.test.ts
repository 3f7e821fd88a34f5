import { describe, expect, it } from "vitest";
import { DISPLAY_SETTINGS, settingAllowed } from "../link/displaySettings.ts";
import { LinkError } from "../link/linkError.ts";
import { decodeScenarioParam, encodeScenarioParam } from "../link/scenarioLink.ts";
import { parseScenario } from "../sim/scenario/index.ts";
import {
  DEFAULT_CAP,
  DEFAULT_PRECISION,
  mcStore,
  parseCapParam,
  parsePrecisionParam,
  precisionParam,
} from "./mcStore.ts";
import { appStore } from "./store.ts";

const literal = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe("the Monte Carlo's settings in a link", () => {
  it("opens a link without them at the defaults, and writes nothing for the defaults", () => {
    expect(parsePrecisionParam(undefined)).toBe(DEFAULT_PRECISION);
    expect(parseCapParam(undefined)).toBe(DEFAULT_CAP);
    expect(precisionParam(DEFAULT_PRECISION)).toBe("");
  });

  it("reads back what it writes", () => {
    for (const points of [0.01, 0.1, 0.25, 1, 20])
      expect(parsePrecisionParam(precisionParam(points / 100))).toBeCloseTo(points / 100, 12);
    expect(parseCapParam("40")).toBe(40);
  });

  it("refuses, naming the key and the allowed range (the table's words), what it cannot use", () => {
    const precisionRange = literal(settingAllowed("mcPrecision"));
    const capRange = literal(settingAllowed("mcCap"));
    expect(() => parsePrecisionParam("99")).toThrow(LinkError);
    expect(() => parsePrecisionParam("99")).toThrow(new RegExp(`mcp=.*${precisionRange}`));
    expect(() => parsePrecisionParam("0")).toThrow(new RegExp(precisionRange));
    for (const bad of ["1e-3", "0x1", " 1", "-1", "", "NaN", "1.5.2", "0.7000000000000001"])
      expect(() => parsePrecisionParam(bad)).toThrow(/mcp=/);
    expect(() => parseCapParam("5")).toThrow(new RegExp(`mcn=.*${capRange}`));
    expect(() => parseCapParam("20001")).toThrow(/mcn=/);
    expect(() => parseCapParam("12.5")).toThrow(new RegExp(capRange));
  });

  it("refuses a bad setting from the page by name and keeps the one it had", () => {
    const before = mcStore.getState();
    expect(() => before.setCap(5)).toThrow(new RegExp(`^${DISPLAY_SETTINGS.mcCap.label} `));
    expect(() => before.setPrecision(0.5)).toThrow(new RegExp(`^${DISPLAY_SETTINGS.mcPrecision.label} `));
    expect(mcStore.getState().cap).toBe(before.cap);
    expect(mcStore.getState().precision).toBe(before.precision);
  });

  it("pins the scenario on screen, and the pin survives its link", () => {
    const s = parseScenario({ cluster: { replicas: 48 }, seed: 9 });
    appStore.getState().setScenario(s);
    mcStore.getState().pin();
    const pinned = mcStore.getState().baseline;
    expect(pinned).toBe(s);
    expect(decodeScenarioParam(encodeScenarioParam(pinned!))).toEqual(s);
    mcStore.getState().unpin();
    expect(mcStore.getState().baseline).toBeNull();
  });
});
