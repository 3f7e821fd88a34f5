import { describe, expect, it } from "vitest";
import { V3_POLICIES } from "../../testing/scenario.arbitrary.ts";
import { runScenario } from "../engine.ts";
import { seedOf } from "../monteCarlo/monteCarlo.ts";
import { DEFAULT_SCENARIO, parseScenario, type Scenario } from "../scenario/index.ts";
import { axisApplies, SWEEP_AXES, sweepValue } from "./index.ts";
import {
  advantagePair,
  type EttrRuns,
  pairedChange,
  planTornado,
  scenariosNeedingSeeds,
  summarizeTornado,
  tornadoSentence,
} from "./tornado.ts";

/** Per-run ETTRs of every scenario of a plan on seeds 0..n−1, as the workers compute them. */
function runPlan(scenarios: readonly Scenario[], n: number): EttrRuns[] {
  return scenarios.map((s) => {
    const out: EttrRuns = {};
    for (const k of s.policies) out[k] = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const r = runScenario(s, { seed: seedOf(s, i) });
      for (const k of s.policies) (out[k] as Float64Array)[i] = r[k]?.ettr ?? Number.NaN;
    }
    return out;
  });
}

// A small cluster that fails often: quick runs whose knobs matter.
const small = parseScenario({
  cluster: { gpus: 512, gpusPerHost: 8, replicas: 8 },
  failures: { perHostDay: 0.05, hangFraction: 0.2 },
  training: { days: 5 },
});

describe("planTornado", () => {
  it("has a row for every axis that applies, each end one knob moved, base first", () => {
    const plan = planTornado(DEFAULT_SCENARIO, 0.5);
    const moved = new Set([...plan.rows.map((r) => r.axis), ...plan.still.map((s) => s.axis)]);
    for (const a of SWEEP_AXES) {
      const applies = axisApplies(DEFAULT_SCENARIO, a.id) && sweepValue(DEFAULT_SCENARIO, a.id) !== null;
      expect(moved.has(a.id), a.id).toBe(applies);
    }
    expect(plan.scenarios[0]).toBe(DEFAULT_SCENARIO);
    expect(plan.scenarios.length).toBe(1 + plan.rows.reduce((n, r) => n + r.ends.length, 0));
    for (const row of plan.rows) {
      for (const e of row.ends) {
        expect(sweepValue(e.scenario, row.axis)).toBeCloseTo(e.x, 9);
        expect(e.x).not.toBe(row.baseX);
        // Everything but the knob is the base's (the MTBF axis moves the failure rate).
        expect(() => parseScenario(e.scenario)).not.toThrow();
        expect(e.scenario.seed).toBe(DEFAULT_SCENARIO.seed);
      }
    }
  });

  it("moves a number by ±amount (clamped), a category to each other value, a zero up by a share of its range", () => {
    const plan = planTornado(DEFAULT_SCENARIO, 0.5);
    const hang = plan.rows.find((r) => r.axis === "hangSeconds");
    expect(hang?.ends.map((e) => e.x)).toEqual([
      DEFAULT_SCENARIO.detection.hangSeconds * 0.5,
      DEFAULT_SCENARIO.detection.hangSeconds * 1.5,
    ]);
    const arrivals = plan.rows.find((r) => r.axis === "failures.arrivals");
    expect(arrivals?.categorical).toBe(true);
    expect(arrivals?.ends.map((e) => e.scenario.failures.arrivals).sort()).toEqual(
      ["poisson", "fixed", "weibull"].filter((a) => a !== DEFAULT_SCENARIO.failures.arrivals).sort(),
    );
    const frac = planTornado(small, 0.9).rows.find((r) => r.axis === "failures.hangFraction");
    // 0.2 ± 90 %: 0.02 and 0.38.
    expect(frac?.ends.map((e) => e.x)).toEqual([0.02, 0.38]);
    // A limited spare pool with 0 spare hosts stops every strategy: the move gives the pool spares.
    const pool = plan.rows.find((r) => r.axis === "spares.pool");
    const limited = pool?.ends[0];
    expect(limited?.scenario.spares.pool).toBe("limited");
    expect(limited?.scenario.spares.hosts).toBe(32);
    expect(limited?.text).toBe("Limited (spare hosts 32, not 0)");
    if (DEFAULT_SCENARIO.failures.hangFraction === 0) {
      const zero = plan.rows.find((r) => r.axis === "failures.hangFraction");
      expect(zero?.ends.map((e) => e.x)).toEqual([0.5]);
    }
  });
});

describe("summarizeTornado", () => {
  const plan = planTornado(small, 0.5);
  const n = 24;
  const runs = runPlan(plan.scenarios, n);
  const seeds = plan.scenarios.map(() => n);
  const result = summarizeTornado(plan, runs, seeds);

  it("a bar end is the mean run-by-run change from the base on the same seeds", () => {
    const row = result.rows[0];
    const i = plan.rows.indexOf(row?.plan as (typeof plan.rows)[number]);
    const k = 1 + plan.rows.slice(0, i).reduce((a, r) => a + r.ends.length, 0);
    const ft = row?.bars.find((b) => b.series === "ftHsdp");
    const a = runs[k]?.ftHsdp as Float64Array;
    const b = runs[0]?.ftHsdp as Float64Array;
    let sum = 0;
    for (let j = 0; j < n; j++) sum += (a[j] as number) - (b[j] as number);
    expect(ft?.segments[0]?.change).toBeCloseTo(sum / n, 12);
  });

  it("rows are sorted by their widest policy bar, and every bar spans 0", () => {
    const sizes = result.rows.map((r) => r.size);
    expect(sizes).toEqual([...sizes].sort((x, y) => y - x));
    for (const r of result.rows)
      for (const b of r.bars) {
        expect(b.lo).toBeLessThanOrEqual(0);
        expect(b.hi).toBeGreaterThanOrEqual(0);
      }
    expect(result.rows[0]?.size).toBeGreaterThan(0);
  });

  it("the advantage bar is FT-HSDP's lead over synchronous, changed", () => {
    expect(result.advantage).toEqual({ subject: "ftHsdp", reference: "synchronous" });
    for (const r of result.rows) {
      const sync = r.bars.find((b) => b.series === "synchronous");
      const ft = r.bars.find((b) => b.series === "ftHsdp");
      const adv = r.bars.find((b) => b.series === "advantage");
      r.plan.ends.forEach((_, j) => {
        const d = (ft?.segments[j]?.change ?? 0) - (sync?.segments[j]?.change ?? 0);
        expect(adv?.segments[j]?.change).toBeCloseTo(d, 12);
      });
    }
  });

  it("common seeds: a knob's change is known far better than either ETTR", () => {
    // The paired change's half-width is smaller than an unpaired one's would be on the same runs.
    const row = result.rows[0];
    const i = plan.rows.indexOf(row?.plan as (typeof plan.rows)[number]);
    const k = 1 + plan.rows.slice(0, i).reduce((a, r) => a + r.ends.length, 0);
    const a = runs[k]?.synchronous as Float64Array;
    const b = runs[0]?.synchronous as Float64Array;
    const paired = pairedChange(a, b, n).half;
    const shuffled = b.slice().reverse();
    expect(paired).toBeLessThan(pairedChange(a, shuffled, n).half);
  });

  it("the sentence ranks knobs as the bars do, naming the top row's ends", () => {
    const text = tornadoSentence(result, plan.policies);
    expect(text).toMatch(/^ETTR depends most on /);
    // The first row the sentence names is the chart's first row whose change beats its uncertainty.
    const shown = result.rows.filter((r) =>
      r.bars.some((b) => b.series !== "advantage" && b.segments.some((x) => Math.abs(x.change) > x.half)),
    );
    const named = shown.slice(0, 3).map((r) => r.plan.label);
    expect(text.indexOf(named[0] as string)).toBe("ETTR depends most on ".length);
    for (const e of shown[0]?.plan.ends ?? []) expect(text).toContain(e.text);
    // The others in the chart's order.
    const at = named.map((l) => text.lastIndexOf(l));
    expect(at).toEqual([...at].sort((x, y) => x - y));
  });

  it("leaves out knobs that changed no run, and says which", () => {
    for (const r of result.rows)
      expect(r.bars.some((b) => b.segments.some((x) => x.change !== 0 || x.half !== 0))).toBe(true);
    expect(result.inert.length + result.rows.length).toBe(plan.rows.length);
    // With an unlimited pool, the spare pool's size and repair time feed nothing.
    expect(result.inert.map((r) => r.axis)).toEqual(
      expect.arrayContaining(["spares.hosts", "spares.repairHours"]),
    );
    for (const r of result.inert) expect(r.seeds).toBe(n);
  });

  it("a bar end's half-width is Student's t over the seeds run, not 1.96", () => {
    const a = Float64Array.from([0.5, 0.7, 0.4, 0.9]);
    const b = new Float64Array(4);
    const sd = Math.sqrt([0.5, 0.7, 0.4, 0.9].reduce((s, x) => s + (x - 0.625) ** 2, 0) / 3);
    // t(0.975, 3) = 3.182 from any table.
    expect(pairedChange(a, b, 4).half).toBeCloseTo((3.182 * sd) / 2, 3);
  });

  it("asks for more seeds only for rows not yet precise, with the base", () => {
    expect(scenariosNeedingSeeds(plan, result, 1, seeds, 2 * n)).toEqual([]);
    const all = scenariosNeedingSeeds(plan, result, 0, seeds, 2 * n);
    expect(all[0]).toBe(0);
    // Rows whose runs did not change at all (half-width 0) are exact already.
    const uncertain = result.rows.filter((r) => r.bars.some((b) => b.segments.some((x) => x.half > 0)));
    expect(all.length).toBe(1 + uncertain.reduce((a, r) => a + r.plan.ends.length, 0));
    expect(uncertain.length).toBeGreaterThan(3);
    expect(scenariosNeedingSeeds(plan, result, 0, seeds, n)).toEqual([]);
  });

  it("one policy: no advantage bar, the sentence is about its ETTR", () => {
    const one = parseScenario({ ...small, policies: ["ftHsdp"] });
    expect(advantagePair(one.policies)).toBeNull();
    const p = planTornado(one, 0.5);
    const r = summarizeTornado(
      p,
      runPlan(p.scenarios, 6),
      p.scenarios.map(() => 6),
    );
    expect(r.rows.every((row) => row.bars.length === 1)).toBe(true);
    expect(tornadoSentence(r, one.policies)).toMatch(/^FT-HSDP's ETTR /);
  });

  it("four policies: a bar each, and FT-HSDP's lead over the first other", () => {
    const four = parseScenario({ ...small, policies: [...V3_POLICIES] });
    const p = planTornado(four, 0.5);
    const r = summarizeTornado(
      p,
      runPlan(p.scenarios, 4),
      p.scenarios.map(() => 4),
    );
    expect(r.rows[0]?.bars.map((b) => b.series)).toEqual([
      "synchronous",
      "ftHsdp",
      "inMemory",
      "hotSpare",
      "advantage",
    ]);
    expect(
      p.rows.some((row) => row.axis === "hotSpare.standbys" || row.axis === "hotSpare.migrateSeconds"),
    ).toBe(true);
  });
});
