import { describe, expect, it } from "vitest";
import { runScenario } from "./engine.ts";
import { POLICY_KEYS } from "./policyKeys.ts";
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

describe("the strategy presets (issue 17 item 7)", () => {
  const withCheckpoints = (id: string) => parseScenario(presetById(id)?.scenario);

  it("headline with job failures gives both policies the same checkpoint cadence", () => {
    const s = withCheckpoints("headline-job-failures");
    expect(s.sync.checkpointMinutes).toBeGreaterThan(0);
    expect(s.ft.checkpointMinutes).toBe(s.sync.checkpointMinutes);
    expect(s.ft.checkpointWriteSeconds).toBe(s.sync.checkpointWriteSeconds);
  });

  it("run all four strategies, every storage checkpoint on one cadence, and say so in their notes", () => {
    for (const id of ["four-strategies", "llama3-strategies"]) {
      const s = withCheckpoints(id);
      expect(s.policies, id).toEqual([...POLICY_KEYS]);
      expect(s.ft.checkpointMinutes, id).toBe(s.sync.checkpointMinutes);
      expect(s.ft.checkpointWriteSeconds, id).toBe(s.sync.checkpointWriteSeconds);
      // In-memory's persistent copy: every persistEvery-th in-memory checkpoint.
      expect(s.inMemory.checkpointMinutes * s.inMemory.persistEvery, id).toBe(s.sync.checkpointMinutes);
      const note = presetById(id)?.description ?? "";
      expect(note, id).toMatch(/Assumptions: .*same failures/);
      expect(note, id).toContain(
        `every ${s.sync.checkpointMinutes} min with a ${s.sync.checkpointWriteSeconds} s`,
      );
      expect(note, id).toContain(`${s.hotSpare.standbys} standby hosts`);
      expect(note, id).toContain(`migration ${s.hotSpare.migrateSeconds} s`);
      expect(note, id).toContain(`refilled ${s.hotSpare.refillMinutes} min`);
      expect(note, id).toContain(`restart takes ${s.inMemory.restartSeconds / 60} min`);
      expect(s.ft.stepOverheadPercent, id).toBe(0);
    }
  });

  it("Llama 3's strategies preset is the Llama 3 cause mix, strategies aside", () => {
    const a = withCheckpoints("llama3-strategies");
    const b = withCheckpoints("llama3-405b-causes");
    expect(a.failures).toEqual(b.failures);
    expect(a.cluster).toEqual(b.cluster);
    expect(a.training).toEqual(b.training);
  });

  it("four strategies: what its note says happens, happens on its first seed", () => {
    const s = withCheckpoints("four-strategies");
    const run = runScenario(s);
    const hot = run.hotSpare;
    expect(hot).toBeDefined();
    // "2 standbys often both refilling, so hot spares fall back to a full restart".
    expect(hot!.jobRestarts).toBeGreaterThan(run.synchronous.failures / 10);
    // "the 30-minute checkpoints cost the synchronous job much of its time in rollbacks".
    expect(run.synchronous.badput.rolledBack).toBeGreaterThan(0.2);
  });

  it("Greyhound's slow hosts alone make the job about 1.34× slower (§6's closed form, no failures)", () => {
    const s = parseScenario({ ...presetById("slow-greyhound")?.scenario, failures: { perHostDay: 0 } });
    const f = runScenario(s).closedForm.policies?.synchronous;
    expect(f?.note).toMatch(/exact in the long run/);
    expect(1 / (f?.value ?? 0)).toBeGreaterThan(1.3);
    expect(1 / (f?.value ?? 0)).toBeLessThan(1.38);
  });
});
