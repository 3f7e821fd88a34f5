/**
 * Lemon hosts' (share, factor) pair and lognormal repairs' σ as sweep axes and tornado rows: each
 * half of the pair moves alone, and applies only while the other half is not neutral (lemons at
 * factor 1, or none at all, change no run).
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_SCENARIO, parseScenario } from "../scenario/index.ts";
import { axisApplies, axisInfo, buildSweep, sweepPointAt, sweepValue } from "./index.ts";
import { planTornado } from "./tornado.ts";

const lemons = parseScenario({
  failures: { badHosts: { share: 0.1, factor: 4 } },
  spares: { pool: "limited", hosts: 8, repairLaw: "lognormal", repairSigma: 1 },
});

describe("lemon hosts and repair spread as axes", () => {
  it("a share sweep moves the share only, over the field table's sweep range", () => {
    const pts = buildSweep(lemons, "failures.badHosts.share", 6);
    expect(pts.map((p) => p.x)).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5]);
    for (const p of pts) {
      expect(p.scenario.failures.badHosts).toEqual({ share: p.x, factor: 4 });
      expect({ ...p.scenario, failures: null, version: null }).toEqual({
        ...lemons,
        failures: null,
        version: null,
      });
    }
    expect(axisInfo("failures.badHosts.share").label).toBe("Lemon share");
  });

  it("a factor sweep is log-spaced from 1 to 20 and moves the factor only", () => {
    const pts = buildSweep(lemons, "failures.badHosts.factor", 3);
    expect(pts.map((p) => p.x)).toEqual([1, 4.472, 20]);
    for (const p of pts) expect(p.scenario.failures.badHosts).toEqual({ share: 0.1, factor: p.x });
    expect(axisInfo("failures.badHosts.factor").log).toBe(true);
    expect(sweepValue(lemons, "failures.badHosts.factor")).toBe(4);
  });

  it("a point is clamped to the member's own range (a share below 1, a factor ≥ 1)", () => {
    expect(sweepPointAt(lemons, "failures.badHosts.share", 5)).toBeNull();
    expect(sweepPointAt(lemons, "failures.badHosts.share", 0.25)?.scenario.failures.badHosts.share).toBe(
      0.25,
    );
    expect(sweepPointAt(lemons, "failures.badHosts.factor", 0.2)?.x).toBe(1);
  });

  it("each half applies only while the other is not neutral; σ only with lognormal repairs", () => {
    expect(axisApplies(DEFAULT_SCENARIO, "failures.badHosts.share")).toBe(false);
    expect(axisApplies(DEFAULT_SCENARIO, "failures.badHosts.factor")).toBe(false);
    expect(axisApplies(DEFAULT_SCENARIO, "spares.repairSigma")).toBe(false);
    expect(axisApplies(lemons, "failures.badHosts.share")).toBe(true);
    expect(axisApplies(lemons, "failures.badHosts.factor")).toBe(true);
    expect(axisApplies(lemons, "spares.repairSigma")).toBe(true);
  });

  it("the tornado has a row for each, moved ±amount", () => {
    const plan = planTornado(lemons, 0.5);
    const row = (id: string) => plan.rows.find((r) => r.axis === id);
    expect(row("failures.badHosts.share")?.ends.map((e) => e.x)).toEqual([0.05, 0.15]);
    expect(row("failures.badHosts.factor")?.ends.map((e) => e.x)).toEqual([2, 6]);
    expect(row("spares.repairSigma")?.ends.map((e) => e.x)).toEqual([0.5, 1.5]);
    expect(planTornado(DEFAULT_SCENARIO, 0.5).rows.some((r) => r.axis.startsWith("failures.badHosts"))).toBe(
      false,
    );
  });
});
