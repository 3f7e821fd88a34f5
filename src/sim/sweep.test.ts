import { describe, expect, it } from "vitest";
import { PRESETS } from "./presets.ts";
import { DEFAULT_SCENARIO, derived, parseScenario, type Scenario } from "./scenario.ts";
import { buildSweep, SWEEP_AXES, SWEEP_GPU_RANGE, sweepRangeProblem, sweepValue } from "./sweep.ts";

const bases: Scenario[] = [DEFAULT_SCENARIO, ...PRESETS.map((p) => parseScenario(p.scenario))];

describe("buildSweep", () => {
  it("every point of every axis, from every preset, is a valid scenario", () => {
    for (const base of bases) {
      for (const axis of SWEEP_AXES) {
        for (const n of [2, 7, 20]) {
          const pts = buildSweep(base, axis.id, n);
          expect(pts.length, `${base.name} ${axis.id}`).toBeGreaterThan(0);
          expect(pts.length).toBeLessThanOrEqual(n);
          for (const p of pts) {
            expect(() => parseScenario(p.scenario)).not.toThrow();
            expect(sweepValue(p.scenario, axis.id)).toBeCloseTo(p.x, 6);
          }
          const xs = pts.map((p) => p.x);
          expect(xs).toEqual([...xs].sort((a, b) => a - b));
          expect(new Set(xs).size).toBe(xs.length);
        }
      }
    }
    // Thousands of scenarios validated (every preset × axis × size): no timing in pass/fail, so no 5 s cap.
  }, 120_000);

  it("cluster size spans 1K–200K GPUs in whole replicas of whole hosts", () => {
    const pts = buildSweep(DEFAULT_SCENARIO, "gpus", 20);
    expect(pts.length).toBe(20);
    const unit = DEFAULT_SCENARIO.cluster.gpusPerHost * DEFAULT_SCENARIO.cluster.replicas;
    for (const p of pts) {
      expect(p.scenario.cluster.gpus).toBe(p.x);
      expect(p.x % unit).toBe(0);
    }
    expect(pts[0]?.x).toBeLessThan(SWEEP_GPU_RANGE.min * 1.1);
    expect(pts.at(-1)?.x).toBeGreaterThan(SWEEP_GPU_RANGE.max * 0.99);
  });

  it("the cluster-size range stretches to take in a cluster outside 1K–200K", () => {
    const small = parseScenario({ cluster: { gpus: 64, gpusPerHost: 8, replicas: 4 } });
    const pts = buildSweep(small, "gpus", 12);
    expect(pts[0]?.x).toBe(64);
    expect(pts.at(-1)?.x).toBeGreaterThan(SWEEP_GPU_RANGE.max * 0.99);
  });

  it("the MTBF axis sets the failure rate so the job's MTBF is the point's x", () => {
    for (const p of buildSweep(DEFAULT_SCENARIO, "mtbf", 9)) {
      expect(derived(p.scenario).mtbfSeconds / 60).toBeCloseTo(p.x, 6);
    }
  });

  it("a recovery knob changes only that knob", () => {
    for (const p of buildSweep(DEFAULT_SCENARIO, "rejoinSeconds", 5)) {
      expect(p.scenario.ft.rejoinSeconds).toBe(p.x);
      expect({ ...p.scenario, ft: { ...p.scenario.ft, rejoinSeconds: 0 } }).toEqual({
        ...DEFAULT_SCENARIO,
        ft: { ...DEFAULT_SCENARIO.ft, rejoinSeconds: 0 },
      });
    }
  });

  it("the replica axis uses divisors of the host count", () => {
    const pts = buildSweep(DEFAULT_SCENARIO, "replicas", 10);
    const { hosts } = derived(DEFAULT_SCENARIO);
    expect(pts.length).toBe(10);
    for (const p of pts) expect(hosts % p.scenario.cluster.replicas).toBe(0);
  });

  it("drops cluster sizes whose failure count the simulator would refuse", () => {
    const hot = parseScenario({
      cluster: { gpus: 960 },
      failures: { perHostDay: 1 },
      training: { days: 365 },
    });
    const pts = buildSweep(hot, "gpus", 20);
    expect(pts.length).toBeLessThan(20);
    for (const p of pts) expect(() => parseScenario(p.scenario)).not.toThrow();
  });
});

describe("buildSweep with a person's range", () => {
  it("keeps every axis's points inside from..to, valid and ordered", () => {
    for (const axis of SWEEP_AXES) {
      const all = buildSweep(DEFAULT_SCENARIO, axis.id, 20).map((p) => p.x);
      const lo = all[Math.floor(all.length / 4)] ?? 0;
      const hi = all[Math.floor((3 * all.length) / 4)] ?? 1;
      if (!(lo < hi)) continue;
      const pts = buildSweep(DEFAULT_SCENARIO, axis.id, 10, { from: lo, to: hi });
      expect(pts.length, axis.id).toBeGreaterThan(0);
      for (const p of pts) {
        expect(p.x, axis.id).toBeGreaterThanOrEqual(lo * 0.999);
        expect(p.x, axis.id).toBeLessThanOrEqual(hi * 1.001);
        expect(sweepValue(p.scenario, axis.id)).toBeCloseTo(p.x, 6);
      }
    }
  });

  it("sweeps GPUs over 2,000–8,000 when asked, not the default 1K–200K", () => {
    const xs = buildSweep(DEFAULT_SCENARIO, "gpus", 5, { from: 2000, to: 8000 }).map((p) => p.x);
    expect(Math.max(...xs)).toBeLessThan(SWEEP_GPU_RANGE.max / 10);
    expect(Math.min(...xs)).toBeGreaterThan(SWEEP_GPU_RANGE.min);
  });

  it("refuses an empty or negative range by name", () => {
    expect(sweepRangeProblem({ from: 10, to: 10 })).toMatch(
      /Sweep from \/ to: from \(10\) must be below to \(10\)/,
    );
    expect(sweepRangeProblem({ from: -1, to: 10 })).toMatch(/≥ 0/);
    expect(sweepRangeProblem({ from: 1, to: 10 })).toBeNull();
  });
});
