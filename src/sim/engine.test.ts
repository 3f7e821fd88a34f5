import { describe, expect, it } from "vitest";
import { closedForms } from "./closedForms/closedForms.ts";
import { runScenario } from "./engine.ts";
import { generateFailureTrace } from "./failures/failureTrace.ts";
import {
  MonteCarloAccumulator,
  monteCarlo,
  nearestRank,
  SUMMARIZED_METRICS,
} from "./monteCarlo/monteCarlo.ts";
import { DEFAULT_SCENARIO, derived, parseScenario, type ScenarioInput } from "./scenario/index.ts";

const withDefaults = (input: ScenarioInput) => parseScenario(input);

describe("docs/model.md's worked check (the FT-HSDP paper's headline)", () => {
  // 1/λ = 18 min, D = 60 + 540 s: sync = 8/18; FT: 3 min stall, 7 min on 11 of 12 replicas.
  const fixed = withDefaults({ failures: { arrivals: "fixed" } });
  const paperSync = 8 / 18;
  const paperFt = (8 + (7 * 11) / 12) / 18;

  it("fixed arrivals give 44.4 % for sync and 80.1 % for FT-HSDP", () => {
    const r = runScenario(fixed);
    expect(Math.abs(r.synchronous!.ettr - paperSync)).toBeLessThan(0.002);
    expect(Math.abs(r.ftHsdp!.ettr - paperFt)).toBeLessThan(0.002);
    // One failure every 1/λ (≈ 1080 s) over 30 days.
    expect(r.synchronous!.failures).toBe(Math.ceil(derived(fixed).expectedFailures) - 1);
    expect(r.synchronous!.stallSecondsPerFailure).toBe(600);
    expect(r.ftHsdp!.stallSecondsPerFailure).toBe(180);
  });

  it("and the fixed-arrival closed forms agree", () => {
    const cf = closedForms(fixed).fixed;
    expect(Math.abs(cf.synchronous - paperSync)).toBeLessThan(0.002);
    expect(Math.abs(cf.ftHsdp - paperFt)).toBeLessThan(0.002);
  });

  it("Poisson arrivals: failures merge into one recovery, so both do better (about 57 % and 82 %)", () => {
    const mc = monteCarlo(DEFAULT_SCENARIO, 20);
    expect(mc.synchronous!.ettr.mean).toBeGreaterThan(0.55);
    expect(mc.synchronous!.ettr.mean).toBeLessThan(0.6);
    expect(mc.ftHsdp!.ettr.mean).toBeGreaterThan(0.8);
    expect(mc.ftHsdp!.ettr.mean).toBeLessThan(0.85);
  });
});

function meanAndStdErr(xs: number[]) {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const variance = xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1);
  return { mean, stdErr: Math.sqrt(variance / xs.length) };
}

describe("Poisson arrivals, sync without rollback", () => {
  it.each([
    ["fail-stop only", { failures: { hangFraction: 0 } }],
    ["a third hangs", { failures: { hangFraction: 1 / 3 } }],
    // 1/λ = 600 s = D: e^(−1).
    ["MTBF equal to the recovery time", { failures: { perHostDay: 86_400 / (600 * 12_288) } }],
  ] as [string, ScenarioInput][])("ETTR matches E[e^(−λD)] within Monte Carlo error (%s)", (_, input) => {
    const s = withDefaults({ ...input, training: { days: 100 } });
    const { lambdaPerSecond: lambda, horizonSeconds } = derived(s);
    const expected = closedForms(s).poissonSyncNoRollback;
    const ettrs = Array.from({ length: 40 }, (_, i) => runScenario(s, { seed: 1000 + i }).synchronous!.ettr);
    const { mean, stdErr } = meanAndStdErr(ettrs);
    // A run starts in training, so a finite horizon is biased by at most about one renewal
    // cycle (training + recovery, mean 1/(λ·ETTR)) over the horizon.
    const edgeBias = 1 / (lambda * expected) / horizonSeconds;
    expect(Math.abs(mean - expected)).toBeLessThan(4 * stdErr + edgeBias);
  });
});

describe("the failure trace", () => {
  it("has λ·horizon failures on average, uniform over hosts, with the hang fraction asked for", () => {
    const s = withDefaults({ failures: { hangFraction: 0.25 }, cluster: { replicas: 4 } });
    const { expectedFailures, hosts } = derived(s);
    let count = 0;
    let hangs = 0;
    const perReplica = [0, 0, 0, 0];
    let consistent = true;
    for (let seed = 0; seed < 20; seed++) {
      const t = generateFailureTrace(s, seed);
      count += t.count;
      for (let i = 0; i < t.count; i++) {
        hangs += t.hang[i]!;
        perReplica[t.replica[i]!]!++;
        consistent &&=
          t.replica[i] === Math.floor(t.host[i]! / (hosts / 4)) &&
          t.detectSeconds[i] === (t.hang[i] ? 600 : 60) &&
          (i === 0 || t.time[i]! > t.time[i - 1]!);
      }
    }
    expect(consistent).toBe(true);
    const n = 20 * expectedFailures;
    expect(Math.abs(count - n)).toBeLessThan(4 * Math.sqrt(n));
    expect(Math.abs(hangs / count - 0.25)).toBeLessThan(4 * Math.sqrt((0.25 * 0.75) / count));
    for (const k of perReplica)
      expect(Math.abs(k / count - 0.25)).toBeLessThan(4 * Math.sqrt((0.25 * 0.75) / count));
  });

  it("changing the hang fraction relabels failures without moving them", () => {
    const a = generateFailureTrace(withDefaults({ failures: { hangFraction: 0 } }), 7);
    const b = generateFailureTrace(withDefaults({ failures: { hangFraction: 0.5 } }), 7);
    expect(b.count).toBe(a.count);
    expect(b.time).toEqual(a.time);
    expect(b.host).toEqual(a.host);
  });

  it("different seeds give different traces, consecutive seeds included", () => {
    const a = generateFailureTrace(DEFAULT_SCENARIO, 1);
    const b = generateFailureTrace(DEFAULT_SCENARIO, 2);
    expect(a.time[0]).not.toBe(b.time[0]);
    expect(a.host[0]).not.toBe(b.host[0]);
  });

  it("no failures when the rate is 0", () => {
    expect(generateFailureTrace(withDefaults({ failures: { perHostDay: 0 } }), 1).count).toBe(0);
  });
});

describe("Monte Carlo", () => {
  const s = withDefaults({ training: { days: 3 } });

  it("one seed is runScenario at the scenario's seed", () => {
    const one = monteCarlo(s, 1);
    const run = runScenario(s);
    expect(one.seeds).toBe(1);
    expect(one.synchronous!.ettr).toEqual({
      mean: run.synchronous!.ettr,
      p5: run.synchronous!.ettr,
      p95: run.synchronous!.ettr,
    });
    expect(one.ftHsdp!.failures.mean).toBe(run.ftHsdp!.failures);
  });

  it("seed i is (seed + i) mod 2^32, and the accumulator in slices equals one go", () => {
    const wrap = { ...s, seed: 0xffff_ffff };
    const acc = new MonteCarloAccumulator(wrap, 3);
    for (const seed of [0xffff_ffff, 0, 1]) acc.add(runScenario(wrap, { seed }));
    expect(acc.finish()).toEqual(monteCarlo(wrap, 3));
  });

  it("reports progress and summarizes every metric with p5 ≤ mean ≤ p95", () => {
    const ticks: number[] = [];
    const mc = monteCarlo(s, 40, (done) => ticks.push(done));
    expect(ticks.at(-1)).toBe(40);
    for (const policy of [mc.synchronous, mc.ftHsdp]) {
      for (const { mean, p5, p95 } of SUMMARIZED_METRICS.map((m) => policy![m])) {
        expect(p5).toBeLessThanOrEqual(mean + 1e-12);
        expect(mean).toBeLessThanOrEqual(p95 + 1e-12);
      }
    }
  });

  it("percentiles are nearest-rank", () => {
    const sorted = Float64Array.from({ length: 20 }, (_, i) => i + 1);
    expect(nearestRank(sorted, 5)).toBe(1);
    expect(nearestRank(sorted, 95)).toBe(19);
    expect(nearestRank(Float64Array.of(3, 8), 5)).toBe(3);
    expect(nearestRank(Float64Array.of(3, 8), 95)).toBe(8);
  });
});

describe("closed forms", () => {
  it("Meta's first-order model only exists with a checkpoint interval", () => {
    expect(closedForms(DEFAULT_SCENARIO).metaFirstOrder).toBeNull();
    const s = withDefaults({
      failures: { perHostDay: 0.0005 },
      sync: { checkpointMinutes: 30, checkpointWriteSeconds: 60 },
    });
    const lambda = derived(s).lambdaPerSecond;
    expect(closedForms(s).metaFirstOrder).toBeCloseTo((1 - lambda * (600 + 900)) / (1 + 60 / 1800), 12);
  });

  it("minReplicas = R turns FT-HSDP's degraded time into stall", () => {
    const s = withDefaults({ failures: { arrivals: "fixed" }, ft: { minReplicas: 12 } });
    const mtbf = derived(s).mtbfSeconds;
    expect(closedForms(s).fixed.ftHsdp).toBeCloseTo((mtbf - 600) / mtbf, 12);
    const r = runScenario(s);
    expect(Math.abs(r.ftHsdp!.ettr - closedForms(s).fixed.ftHsdp)).toBeLessThan(0.002);
  });

  it("no failures: every closed form says 1", () => {
    const cf = closedForms(withDefaults({ failures: { perHostDay: 0 } }));
    expect(cf.fixed).toEqual({ synchronous: 1, ftHsdp: 1 });
    expect(cf.poissonSyncNoRollback).toBe(1);
  });
});
