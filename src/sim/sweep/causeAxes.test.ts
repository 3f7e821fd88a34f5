/**
 * A cause's share and scope as sweep axes and tornado rows, and a list of
 * knobs that must be axes, checked against the axes a scenario offers: a field added to the
 * field table (or to a cause) without an axis fails here unless it is excluded with a reason.
 */

import { describe, expect, it } from "vitest";
import { V3_POLICIES } from "../../testing/scenario.arbitrary.ts";
import { causeTable } from "../failures/causes.ts";
import { MONTE_CARLO_BUDGET_FAILURES, monteCarloCost } from "../monteCarlo/budget.ts";
import { PRESETS } from "../presets.ts";
import {
  DEFAULT_SCENARIO,
  derived,
  FIELD_SPECS,
  type FieldSpec,
  fieldValue,
  GROUPS,
  parseScenario,
  type Scenario,
} from "../scenario/index.ts";
import {
  axisApplies,
  axisInfo,
  buildSweep,
  CAUSE_SHARE_MIN,
  causeAxisOf,
  sweepAxesFor,
  sweepAxisProblem,
  sweepPointAt,
  sweepValue,
} from "./index.ts";
import { planTornado, TORNADO_MAX_SEEDS } from "./tornado.ts";

function preset(id: string): Scenario {
  const p = PRESETS.find((q) => q.id === id);
  if (!p) throw new Error(`no preset ${id}`);
  return parseScenario(p.scenario);
}

/** The Llama 3 cause mix (18 causes, host, rack and job scope, one hang) and a two-cause one. */
const llama = preset("llama3-405b-causes");
const twoCauses = preset("headline-job-failures");
const oneCause = parseScenario({
  failures: { causes: [{ name: "Host", share: 1, scope: "host" }] },
});

describe("a cause's axes", () => {
  it("each cause of the list gives a share axis (with two causes or more) and a scope axis, named in the label", () => {
    for (const s of [llama, twoCauses]) {
      const ids = sweepAxesFor(s).map((a) => a.id);
      s.failures.causes.forEach((c, i) => {
        expect(ids).toContain(`cause.${i}.share`);
        expect(ids).toContain(`cause.${i}.scope`);
        expect(axisInfo(`cause.${i}.share`, s).label).toBe(`Cause share: ${c.name}`);
        expect(axisInfo(`cause.${i}.share`, s).help).toMatch(/other causes keep their proportions/);
        expect(axisApplies(s, `cause.${i}.share`)).toBe(true);
      });
    }
    expect(sweepAxesFor(DEFAULT_SCENARIO).some((a) => causeAxisOf(a.id))).toBe(false);
    // One cause has every failure whatever its weight: no share axis, but a scope axis.
    expect(sweepAxesFor(oneCause).map((a) => a.id)).toContain("cause.0.scope");
    expect(sweepAxesFor(oneCause).map((a) => a.id)).not.toContain("cause.0.share");
  });

  it("a share sweep sets the cause's probability to x, keeps the others' proportions and the failure rate", () => {
    for (const [s, i] of [
      [llama, 2],
      [llama, 17],
      [twoCauses, 1],
    ] as const) {
      const id = `cause.${i}.share` as const;
      const base = causeTable(s);
      const pts = buildSweep(s, id, 9);
      expect(pts.length).toBe(9);
      const xs = pts.map((p) => p.x);
      expect(xs).toEqual([...xs].sort((a, b) => a - b));
      // The default range takes in the cause's own share, so its point is on the curve.
      expect(xs[0]).toBeLessThanOrEqual(base.probability[i] as number);
      expect(xs.at(-1)).toBeGreaterThanOrEqual(base.probability[i] as number);
      for (const p of pts) {
        expect(() => parseScenario(p.scenario)).not.toThrow();
        expect(p.scenario).toEqual(parseScenario(p.scenario));
        const t = causeTable(p.scenario);
        expect(t.probability[i]).toBeCloseTo(p.x, 12);
        expect(sweepValue(p.scenario, id)).toBeCloseTo(p.x, 12);
        // Every other cause keeps its weight, so the others' ratios are exactly the base's.
        p.scenario.failures.causes.forEach((c, j) => {
          if (j !== i) expect(c).toEqual(s.failures.causes[j]);
          else expect({ ...c, share: 0 }).toEqual({ ...s.failures.causes[j], share: 0 });
        });
        // How often a failure comes is unchanged: only what it is changes.
        expect(p.scenario.failures.perHostDay).toBe(s.failures.perHostDay);
        expect(derived(p.scenario).mtbfSeconds).toBe(derived(s).mtbfSeconds);
        expect({ ...p.scenario, failures: null }).toEqual({ ...s, failures: null });
      }
    }
  });

  it("a person's range and any value asked for are clamped into (0, 1): every point is a valid scenario", () => {
    const xs = buildSweep(twoCauses, "cause.0.share", 5, { from: 0, to: 5 }).map((p) => p.x);
    expect(xs[0]).toBe(CAUSE_SHARE_MIN);
    expect(xs.at(-1)).toBeLessThan(1);
    const hi = sweepPointAt(twoCauses, "cause.1.share", 7);
    const lo = sweepPointAt(twoCauses, "cause.1.share", -1);
    expect(hi && hi.x < 1 && hi.x > 0.99).toBe(true);
    expect(lo?.x).toBe(CAUSE_SHARE_MIN);
    for (const p of [hi, lo]) expect(() => parseScenario(p?.scenario)).not.toThrow();
    // Weights near the field's maximum (1,000,000) still give valid points: the cause's weight stays within it.
    const heavy = parseScenario({
      failures: {
        causes: [
          { name: "A", share: 900_000, scope: "host" },
          { name: "B", share: 1_000_000, scope: "host" },
        ],
      },
    });
    for (const p of buildSweep(heavy, "cause.0.share", 20)) {
      expect(() => parseScenario(p.scenario)).not.toThrow();
      expect(sweepValue(p.scenario, "cause.0.share")).toBeCloseTo(p.x, 12);
    }
  });

  it("a scope sweep moves that cause through host, rack and job; job scope needs no new host", () => {
    const pts = buildSweep(llama, "cause.0.scope", 20);
    expect(pts.map((p) => p.scenario.failures.causes[0]?.scope)).toEqual(["host", "rack", "job"]);
    expect(pts.map((p) => p.scenario.failures.causes[0]?.newHost)).toEqual([true, true, false]);
    // A job-wide cause moved to host scope breaks its host, as a host cause does by default.
    const fromJob = buildSweep(llama, "cause.2.scope", 3);
    expect(fromJob.map((p) => p.scenario.failures.causes[2]?.newHost)).toEqual([true, true, false]);
    // A cause that breaks no host by choice (the rack's switch) keeps that choice off job scope.
    const rack = buildSweep(llama, "cause.3.scope", 3);
    expect(rack.map((p) => p.scenario.failures.causes[3]?.newHost)).toEqual([false, false, false]);
    for (const p of [...pts, ...fromJob, ...rack]) {
      expect(() => parseScenario(p.scenario)).not.toThrow();
      expect(p.scenario.failures.causes.length).toBe(llama.failures.causes.length);
    }
  });

  it("an axis naming a cause the scenario does not list is refused by name, and sweeps nothing", () => {
    expect(sweepAxisProblem(twoCauses, "cause.1.share")).toBeNull();
    expect(sweepAxisProblem(twoCauses, "cause.2.share")).toBe(
      "axis cause.2.share moves failures.causes[2], but the scenario lists 2 causes (causes[0]–causes[1])",
    );
    expect(sweepAxisProblem(DEFAULT_SCENARIO, "cause.0.scope")).toMatch(/lists no causes/);
    expect(sweepAxisProblem(oneCause, "cause.0.share")).toMatch(/only cause has every failure/);
    expect(sweepAxisProblem(DEFAULT_SCENARIO, "gpus")).toBeNull();
    expect(buildSweep(twoCauses, "cause.5.share", 10)).toEqual([]);
    expect(sweepPointAt(DEFAULT_SCENARIO, "cause.0.scope", 1)).toBeNull();
    expect(axisApplies(twoCauses, "cause.2.scope")).toBe(false);
    // One spelling per axis: no leading zeros, no index past the list's maximum (32).
    expect(causeAxisOf("cause.01.share")).toBeNull();
    expect(causeAxisOf("cause.32.share")).toBeNull();
    expect(causeAxisOf("cause.31.share")).toEqual({ index: 31, key: "share" });
    expect(causeAxisOf("cause.0.name")).toBeNull();
  });
});

describe("the tornado over a cause mix", () => {
  it("has a share row per cause, moved ±amount of itself (clamped below 1), and a scope row per cause", () => {
    const plan = planTornado(twoCauses, 0.5);
    const share0 = plan.rows.find((r) => r.axis === "cause.0.share");
    const share1 = plan.rows.find((r) => r.axis === "cause.1.share");
    expect(share0?.label).toBe("Cause share: Host");
    // Host has 0.9 of failures: down to 0.45, up to 1.35 clamped to the largest share allowed.
    expect(share0?.baseX).toBeCloseTo(0.9, 12);
    expect(share0?.ends[0]?.x).toBe(0.45);
    expect(share0?.ends[1]?.x).toBeGreaterThan(0.99);
    expect(share0?.ends[1]?.x).toBeLessThan(1);
    expect(share1?.ends.map((e) => e.x)).toEqual([0.05, 0.15]);
    expect(share1?.ends.map((e) => e.text)).toEqual(["0.05", "0.15"]);
    const scope1 = plan.rows.find((r) => r.axis === "cause.1.scope");
    expect(scope1?.categorical).toBe(true);
    expect(scope1?.ends.map((e) => e.text)).toEqual(["host", "rack"]);
    for (const row of plan.rows)
      for (const e of row.ends) {
        expect(() => parseScenario(e.scenario)).not.toThrow();
        expect(sweepValue(e.scenario, row.axis)).toBeCloseTo(e.x, 9);
      }
  });

  it("lists every cause of an 18-cause mix, and its scenarios stay within the Monte Carlo budget as the others do", () => {
    const plan = planTornado(llama, 0.5);
    const axes = new Set([...plan.rows.map((r) => r.axis), ...plan.still.map((s) => s.axis)]);
    llama.failures.causes.forEach((_, i) => {
      expect(axes.has(`cause.${i}.share`), `cause ${i}`).toBe(true);
      expect(axes.has(`cause.${i}.scope`), `cause ${i}`).toBe(true);
    });
    // 18 causes add 70-odd scenarios: at the default cap of 400 seeds each, well within the budget
    // a link's tornado may start without asking (tornadoStore's tornadoCost sums the same).
    const failures = plan.scenarios.reduce((n, sc) => n + monteCarloCost(sc, TORNADO_MAX_SEEDS.default), 0);
    expect(failures).toBeLessThan(MONTE_CARLO_BUDGET_FAILURES);
  });
});

/**
 * Fields that are not an axis, on purpose, and why. Anything else numeric or enumerated, in a
 * group or in a list's entries, must be an axis of some scenario that has it.
 */
const NOT_AN_AXIS: Record<string, string> = {
  // The failure rate is swept as the job's MTBF ("mtbf"), the axis old links name.
  "failures.perHostDay": "swept as the job's MTBF (axis mtbf)",
  // Text: a name moves no number.
  "failures.causes[].name": "text, shown as the cause's name; it changes no number",
  // What a cause is: with a cause mix, the hang share is the share of the hanging causes, swept by
  // their share axes (hang fraction itself must be 0 beside a cause mix).
  "failures.causes[].hang":
    "yes/no: part of what the cause is; the hanging causes' share axes sweep the hang share",
  // §5: a replay's log is data, not a number (lemon hosts' share and factor are axes each).
  "failures.log": "a recorded failure log, replayed as it is: not a number to sweep",
  "failures.causes[].newHost":
    "yes/no, and fixed by scope for job-wide causes; the scope axis moves it with the scope",
};

describe("every knob is an axis", () => {
  it("each numeric and enumerated field of the table, and of each cause, is an axis or excluded with a reason", () => {
    const withAll = parseScenario({
      policies: [...V3_POLICIES],
      failures: {
        arrivals: "weibull",
        badHosts: { share: 0.1, factor: 4 },
        causes: [
          { name: "Host", share: 8, scope: "host" },
          { name: "Rack", share: 1, scope: "rack" },
          { name: "Bug", share: 1, scope: "job" },
        ],
      },
      cluster: { hostsPerRack: 8 },
      spares: { pool: "limited", hosts: 10, repairLaw: "lognormal" },
    });
    const axes = sweepAxesFor(withAll);
    const moved = new Set(
      axes.flatMap((a) =>
        a.field
          ? [`${a.field.group}.${a.field.key}`]
          : a.cause
            ? [`failures.causes[${a.cause.index}].${a.cause.key}`]
            : [],
      ),
    );
    const missing: string[] = [];
    for (const g of GROUPS)
      for (const [key, spec] of Object.entries(FIELD_SPECS[g] as Record<string, FieldSpec>)) {
        const path = `${g}.${key}`;
        if (spec.kind === "list") {
          // Each entry's fields: every cause of the scenario has each as an axis.
          const list = fieldValue(withAll, g, key);
          const entries = Array.isArray(list) ? list : [];
          expect(entries.length, path).toBeGreaterThan(1);
          for (const [field, item] of Object.entries(spec.item)) {
            if (NOT_AN_AXIS[`${path}[].${field}`]) continue;
            if (item.kind === "text" || item.kind === "bool") missing.push(`${path}[].${field}`);
            for (let i = 0; i < entries.length; i++)
              if (!moved.has(`${path}[${i}].${field}`)) missing.push(`${path}[${i}].${field}`);
          }
        } else if (!NOT_AN_AXIS[path] && !moved.has(path)) missing.push(path);
      }
    expect(missing).toEqual([]);
    // Every axis of this scenario applies to it and sweeps valid scenarios.
    for (const a of axes) {
      if (!axisApplies(withAll, a.id)) continue;
      for (const p of buildSweep(withAll, a.id, 4))
        expect(() => parseScenario(p.scenario), a.id).not.toThrow();
    }
  }, 60_000);

  it("every knob listed here is among the axes the page offers", () => {
    const ids = sweepAxesFor(twoCauses).map((a) => a.id);
    for (const id of [
      "spares.hosts",
      "spares.repairHours",
      "failures.hangFraction",
      "ft.hangTimeoutSeconds",
      "failures.weibullShape",
      "cause.0.share",
      "cause.1.share",
      "cluster.placement",
      "inMemory.checkpointMinutes",
      "inMemory.writeSeconds",
      "inMemory.restartSeconds",
      "inMemory.persistEvery",
      "hotSpare.standbys",
      "hotSpare.migrateSeconds",
      "hotSpare.refillMinutes",
    ])
      expect(ids, id).toContain(id);
  });
});
