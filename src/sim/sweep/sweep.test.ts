import { describe, expect, it } from "vitest";
import { V3_POLICIES } from "../../testing/scenario.arbitrary.ts";
import { PRESETS } from "../presets.ts";
import {
  DEFAULT_SCENARIO as D,
  DEFAULT_SCENARIO,
  derived,
  FIELD_SPECS,
  type FieldSpec,
  GROUPS,
  parseScenario,
  type Scenario,
  stringField,
} from "../scenario/index.ts";
import {
  axisApplies,
  buildSweep,
  SWEEP_AXES,
  SWEEP_GPU_RANGE,
  sweepPointAt,
  sweepRangeProblem,
  sweepValue,
} from "./index.ts";

const bases: Scenario[] = [DEFAULT_SCENARIO, ...PRESETS.map((p) => parseScenario(p.scenario))];

describe("buildSweep", () => {
  it("every point of every axis, from every preset, is a valid scenario", () => {
    for (const base of bases) {
      for (const axis of SWEEP_AXES) {
        for (const n of [2, 7, 20]) {
          const pts = buildSweep(base, axis.id, n);
          expect(pts.length, `${base.name} ${axis.id}`).toBeGreaterThan(0);
          // An enumerated field sweeps all its categories, whatever the point count.
          expect(pts.length).toBeLessThanOrEqual(axis.categories?.length ?? n);
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
    // ~45 axes × every preset × 3 point counts, each point through the validator: seconds on a loaded core.
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

describe("every field is an axis", () => {
  it("each numeric and enumerated field of the field table is moved by exactly one axis", () => {
    const moved = SWEEP_AXES.flatMap((a) =>
      a.field ? [`${a.field.group}.${a.field.key}${a.field.member ? `.${a.field.member}` : ""}`] : [],
    );
    expect(new Set(moved).size).toBe(moved.length);
    for (const g of GROUPS)
      for (const [key, spec] of Object.entries(FIELD_SPECS[g] as Record<string, FieldSpec>)) {
        if (spec.kind !== "int" && spec.kind !== "number" && spec.kind !== "enum") continue;
        // The failure rate is swept as the job's MTBF (the "mtbf" axis, which has no field of its own).
        if (g === "failures" && key === "perHostDay") continue;
        expect(moved, `${g}.${key}`).toContain(`${g}.${key}`);
      }
    // A record's members that say how they sweep (lemon hosts' share and factor) each have one.
    for (const g of GROUPS)
      for (const [key, spec] of Object.entries(FIELD_SPECS[g] as Record<string, FieldSpec>))
        if (spec.kind === "record")
          for (const [member, m] of Object.entries(spec.fields))
            if (m.sweep) expect(moved).toContain(`${g}.${key}.${member}`);
  });

  it("a field's axis changes that field only, over its categories or its spec's range", () => {
    const four = parseScenario({ policies: [...V3_POLICIES] });
    for (const axis of SWEEP_AXES) {
      const f = axis.field;
      if (!f || ["gpus", "replicas"].includes(axis.id)) continue;
      const pts = buildSweep(four, axis.id, 5);
      expect(pts.length, axis.id).toBeGreaterThan(axis.categories ? 1 : 0);
      for (const p of pts) {
        // The version follows the content: a §5 field off its default makes it 4, a §6 one 5.
        const changed = {
          ...p.scenario,
          version: null,
          [f.group]: { ...p.scenario[f.group], [f.key]: null },
        };
        const orig = { ...four, version: null, [f.group]: { ...four[f.group], [f.key]: null } };
        expect(changed, axis.id).toEqual(orig);
      }
      if (axis.categories)
        expect(pts.map((p) => stringField(p.scenario, f.group, f.key))).toEqual(
          axis.categories.map((c) => c.value),
        );
    }
  });

  it("GPUs per host and hosts per rack sweep only values that divide the cluster", () => {
    for (const id of ["cluster.gpusPerHost", "cluster.hostsPerRack"] as const) {
      const pts = buildSweep(D, id, 8);
      expect(pts.length).toBeGreaterThan(1);
      for (const p of pts) expect(() => parseScenario(p.scenario)).not.toThrow();
    }
  });

  it("sweepPointAt snaps to a valid value near the one asked for", () => {
    expect(sweepPointAt(D, "cluster.hostsPerRack", 7)?.x).toBeGreaterThan(0);
    const r = sweepPointAt(D, "replicas", D.cluster.replicas * 1.5);
    expect(r && derived(r.scenario).hosts % r.x).toBe(0);
    expect(sweepPointAt(D, "hangSeconds", 900)?.scenario.detection.hangSeconds).toBe(900);
    expect(sweepPointAt(D, "failures.hangFraction", 2)?.x).toBe(1);
    expect(sweepPointAt(D, "cluster.placement", 1)?.scenario.cluster.placement).toBe("striped");
  });

  it("an axis applies when its knob is enabled", () => {
    expect(axisApplies(D, "failures.weibullShape")).toBe(D.failures.arrivals === "weibull");
    expect(axisApplies(D, "hotSpare.standbys")).toBe(false);
    expect(axisApplies(D, "gpus")).toBe(true);
  });
});
