import { describe, expect, it } from "vitest";
import { PRESETS, presetById } from "./presets.ts";
import { derived, parseScenario } from "./scenario.ts";

describe("presets", () => {
  it("all parse as valid scenarios and cite a source", () => {
    for (const p of PRESETS) {
      expect(() => parseScenario(p.scenario), p.id).not.toThrow();
      expect(p.source.length, p.id).toBeGreaterThan(40);
      expect(p.title.length, p.id).toBeGreaterThan(0);
    }
  });

  it("have distinct ids and scenario names (a loaded preset is recognisable by its name)", () => {
    expect(new Set(PRESETS.map((p) => p.id)).size).toBe(PRESETS.length);
    expect(new Set(PRESETS.map((p) => p.scenario.name)).size).toBe(PRESETS.length);
  });

  it("the headline presets fail every 18 minutes, with fixed and with Poisson arrivals", () => {
    const fixed = parseScenario(presetById("headline-fixed")?.scenario);
    const poisson = parseScenario(presetById("headline-poisson")?.scenario);
    expect(fixed.failures.arrivals).toBe("fixed");
    expect(poisson.failures.arrivals).toBe("poisson");
    for (const s of [fixed, poisson]) {
      expect(derived(s).mtbfSeconds / 60).toBeCloseTo(18, 1);
      expect(s.cluster.gpus).toBe(98_304);
    }
  });

  it("Llama 3 405B reproduces 419 unexpected interruptions over 54 days on 2,048 hosts", () => {
    const s = parseScenario(presetById("llama3-405b")?.scenario);
    expect(derived(s).hosts).toBe(2048);
    expect(derived(s).expectedFailures).toBeGreaterThan(410);
    expect(derived(s).expectedFailures).toBeLessThan(430);
  });

  it("the teaching cluster is 64 GPUs in 4 replicas with a dozen or so failures", () => {
    const s = parseScenario(presetById("teaching")?.scenario);
    expect(s.cluster.gpus).toBe(64);
    expect(s.cluster.replicas).toBe(4);
    expect(derived(s).expectedFailures).toBeGreaterThan(5);
    expect(derived(s).expectedFailures).toBeLessThan(30);
  });

  it("the hang pair differs only in hang detection time", () => {
    const fast = parseScenario(presetById("hang-c4")?.scenario);
    const slow = parseScenario(presetById("hang-watchdog")?.scenario);
    expect(fast.failures.hangFraction).toBeGreaterThan(0);
    expect({ ...fast, name: "", detection: null }).toEqual({ ...slow, name: "", detection: null });
    expect(fast.detection.hangSeconds).toBe(30);
    expect(slow.detection.hangSeconds).toBe(600);
  });
});
