/**
 * The engine's Monte Carlo against docs/model.md §3's closed forms (renewal.test.ts checks the
 * independent reference; this checks the engine itself). Seeds are the Monte Carlo's own
 * (seedOf), and each policy runs through the registry on the same failure traces as
 * runScenario would: the mean below is exactly the Monte Carlo's ETTR mean.
 *
 * Tolerances are statistical, not timing: the standard error of the mean from the runs
 * themselves, plus what the form leaves out (named at each case). A rollback bug (no rollback:
 * e^(−λD) = 57 % instead of 22 %), a lost checkpoint, a replica's down time not counted
 * (1 − λT/R off) are each many tolerances away.
 */
import { describe, expect, it } from "vitest";
import { generateFailureTrace } from "../failures/failureTrace.ts";
import { seedOf } from "../monteCarlo/monteCarlo.ts";
import { ftHsdpPolicy } from "../policies/ftHsdp/index.ts";
import type { Policy } from "../policies/index.ts";
import { synchronousPolicy } from "../policies/synchronous/index.ts";
import { derived, parseScenario, type Scenario } from "../scenario/index.ts";
import { closedForms } from "./closedForms.ts";

/** Mean ETTR of one policy over the first n Monte Carlo seeds, and its standard error. */
function engineMean(s: Scenario, policy: Policy, n: number): { mean: number; se: number } {
  const xs: number[] = [];
  for (let i = 0; i < n; i++)
    xs.push(policy.run(s, generateFailureTrace(s, seedOf(s, i)), false).metrics.ettr);
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  const se = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1) / n);
  return { mean, se };
}

/** Poisson, host, hang, rack and job causes; racks of 4 hosts in packed replicas. */
const MIX = [
  { name: "GPU", share: 6, scope: "host", hang: false, newHost: true },
  { name: "NCCL hang", share: 2, scope: "host", hang: true, newHost: true },
  { name: "software", share: 1, scope: "job", hang: false, newHost: false },
  { name: "ToR", share: 1, scope: "rack", hang: true, newHost: false },
] as const;

describe("engine Monte Carlo vs the synchronous renewal form (exact for this model)", () => {
  it.each([
    ["§3 worked check: 30-min checkpoints, 10 s writes (22.0 %)", {}],
    [
      "a cause mix: hangs, racks and job-scope failures, 20-min checkpoints, 60 s writes",
      {
        cluster: { hostsPerRack: 4 },
        failures: { hangFraction: 0, causes: MIX },
        sync: { checkpointMinutes: 20, checkpointWriteSeconds: 60 },
      },
    ],
  ] as const)("%s", (name, overrides) => {
    const s = parseScenario({
      sync: { checkpointMinutes: 30, checkpointWriteSeconds: 10 },
      ...overrides,
    });
    const form = closedForms(s).syncRenewal.value;
    expect(form).not.toBeNull();
    if (name.startsWith("§3")) expect(form).toBeCloseTo(0.22, 3);
    const { mean, se } = engineMean(s, synchronousPolicy, 160);
    // The form is a long-run average: a finite horizon starts with a fresh segment and cuts the
    // last one, about one mean failure interval each out of λH of them.
    const { lambdaPerSecond: lambda, horizonSeconds: H } = derived(s);
    const edge = 2 / (lambda * H);
    expect(Math.abs(mean - form!)).toBeLessThanOrEqual(3.5 * se + edge);
  });
});

describe("engine Monte Carlo vs FT-HSDP's first-order form, where λT/R is small", () => {
  it.each([
    ["the headline cluster at 1/6.5 its failure rate (λT/R ≈ 0.005)", { failures: { perHostDay: 0.001 } }],
    [
      "host and hang causes, FTAR's 60 s hang timeout, blocking catch-up",
      {
        failures: {
          perHostDay: 0.001,
          hangFraction: 0,
          causes: [MIX[0], MIX[1]],
        },
        ft: { hangTimeoutSeconds: 60, catchUp: "blocking", catchUpSeconds: 30 },
      },
    ],
  ] as const)("%s", (_name, overrides) => {
    const s = parseScenario(overrides);
    const form = closedForms(s).ftFirstOrder.value;
    expect(form).not.toBeNull();
    const { mean, se } = engineMean(s, ftHsdpPolicy, 160);
    // First order in λ: what it leaves out (a failure striking a replica already down, down time
    // overlapping another failure's stall) is of order λ(S+T) · λT/R, with S the longest global
    // stall and T the down time per replica failure.
    const { lambdaPerSecond: lambda } = derived(s);
    const blocking = s.ft.catchUp === "blocking";
    const S =
      Math.max(s.detection.failStopSeconds, s.detection.hangSeconds) +
      s.ft.reconfigureSeconds +
      s.ft.rejoinSeconds +
      (blocking ? s.ft.catchUpSeconds : 0);
    const T = s.ft.replicaRestartSeconds + (blocking ? 0 : s.ft.catchUpSeconds);
    const secondOrder = (lambda * (S + T) * lambda * T) / s.cluster.replicas;
    expect(secondOrder).toBeLessThan(1e-3);
    expect(Math.abs(mean - form!)).toBeLessThanOrEqual(4 * se + secondOrder);
  });
});

describe("engine Monte Carlo vs the fixed-arrival forms (exact when recoveries never overlap)", () => {
  it.each([
    // 5-minute checkpoints once showed 44 % (rollback ignored) beside a simulated 28 %.
    [
      "the paper's cluster, 5-minute checkpoints, 10 s writes: k·C/τ",
      { sync: { checkpointMinutes: 5, checkpointWriteSeconds: 10 } },
    ],
    [
      "hangs found after 300 s, 2-minute checkpoints: k per cause",
      {
        failures: { hangFraction: 0.3 },
        detection: { hangSeconds: 300 },
        sync: { checkpointMinutes: 2, checkpointWriteSeconds: 5 },
      },
    ],
    ["no checkpoints: (τ − D)/τ", {}],
  ] as const)("%s", (_name, overrides) => {
    const s = parseScenario({
      ...overrides,
      failures: { arrivals: "fixed", ...("failures" in overrides ? overrides.failures : {}) },
    });
    const cf = closedForms(s).fixedArrivals;
    expect(cf.synchronous.value).not.toBeNull();
    expect(cf.ftHsdp.value).not.toBeNull();
    const { lambdaPerSecond: lambda, horizonSeconds: H } = derived(s);
    // The first interval has no recovery before it and the horizon cuts the last one.
    const edge = 2 / (lambda * H);
    const sync = engineMean(s, synchronousPolicy, 40);
    expect(Math.abs(sync.mean - cf.synchronous.value!)).toBeLessThanOrEqual(3.5 * sync.se + edge);
    const ft = engineMean(s, ftHsdpPolicy, 40);
    expect(Math.abs(ft.mean - cf.ftHsdp.value!)).toBeLessThanOrEqual(3.5 * ft.se + edge);
  });

  it("the 5-minute case keeps one checkpoint per window: 300 s of every 1/λ ≈ 1,080 s (27.8 %)", () => {
    const s = parseScenario({
      failures: { arrivals: "fixed" },
      sync: { checkpointMinutes: 5, checkpointWriteSeconds: 10 },
    });
    expect(closedForms(s).fixedArrivals.synchronous.value).toBeCloseTo(300 / derived(s).mtbfSeconds, 12);
  });
});

describe("engine Monte Carlo vs the Poisson no-rollback form (exact)", () => {
  it("the default scenario: E[e^(−λD)] = 57.4 %", () => {
    const s = parseScenario({});
    const form = closedForms(s).poissonNoRollback.value;
    expect(form).toBeCloseTo(Math.exp(-600 / derived(s).mtbfSeconds), 12);
    const { mean, se } = engineMean(s, synchronousPolicy, 80);
    const { lambdaPerSecond: lambda, horizonSeconds: H } = derived(s);
    expect(Math.abs(mean - form!)).toBeLessThanOrEqual(3.5 * se + 2 / (lambda * H));
  });
});

describe("FT-HSDP's form uses e^(−λ·E[S]) and its own checkpoint writes", () => {
  it("30 % hangs at NCCL's 600 s watchdog: within 0.5 point, where E[e^(−λS)] overstated by over a point", () => {
    const s = parseScenario({ failures: { hangFraction: 0.3 } });
    const form = closedForms(s).ftFirstOrder.value!;
    const { mean, se } = engineMean(s, ftHsdpPolicy, 80);
    // The first-order term's residue at this rate (λT/R ≈ 0.03) is what the 0.5 point allows.
    expect(Math.abs(mean - form)).toBeLessThanOrEqual(4 * se + 0.005);
    const { lambdaPerSecond: lambda } = derived(s);
    const stallOf = (detect: number) => detect + s.ft.reconfigureSeconds + s.ft.rejoinSeconds;
    const oldForm =
      (0.7 * Math.exp(-lambda * stallOf(60)) + 0.3 * Math.exp(-lambda * stallOf(600))) *
      (1 - (lambda * s.ft.replicaRestartSeconds) / s.cluster.replicas);
    expect(oldForm - mean).toBeGreaterThan(0.01);
  });

  it("FT-HSDP's 20-minute checkpoints with 60 s writes: × C/(C+W), first order", () => {
    const s = parseScenario({
      failures: { perHostDay: 0.001 },
      ft: { checkpointMinutes: 20, checkpointWriteSeconds: 60 },
    });
    const form = closedForms(s).ftFirstOrder.value!;
    const without = closedForms(parseScenario({ failures: { perHostDay: 0.001 } })).ftFirstOrder.value!;
    expect(form).toBeCloseTo((without * 1200) / 1260, 12);
    const { mean, se } = engineMean(s, ftHsdpPolicy, 80);
    const { lambdaPerSecond: lambda } = derived(s);
    // Left out: a write overlapping a failure's stall (λ·S·W/(C+W)) and the second-order terms.
    const S = s.detection.failStopSeconds + s.ft.rejoinSeconds;
    const T = s.ft.replicaRestartSeconds;
    const residue = (lambda * S * 60) / 1260 + lambda * (S + T) * ((lambda * T) / s.cluster.replicas);
    expect(residue).toBeLessThan(0.005);
    expect(Math.abs(mean - form)).toBeLessThanOrEqual(4 * se + residue);
  });
});

describe("Meta's first-order model", () => {
  it("within (λ(C+W))² of the Monte Carlo where λ(C+W) ≪ 1 (here 0.087)", () => {
    const s = parseScenario({
      failures: { perHostDay: 0.0005 },
      sync: { checkpointMinutes: 20, checkpointWriteSeconds: 30 },
    });
    const form = closedForms(s).metaApproximation.value!;
    const { lambdaPerSecond: lambda } = derived(s);
    const x = lambda * (1200 + 30);
    expect(x).toBeLessThan(0.1);
    const { mean, se } = engineMean(s, synchronousPolicy, 80);
    expect(Math.abs(mean - form)).toBeLessThanOrEqual(3.5 * se + x * x);
  });

  it("says it is out of its regime instead of a clamped 0 %", () => {
    const s = parseScenario({ sync: { checkpointMinutes: 60, checkpointWriteSeconds: 10 } });
    const meta = closedForms(s).metaApproximation;
    expect(meta.value).toBeNull();
    expect(meta.note).toMatch(/outside its regime/);
    // The old key keeps version 1's clamped number for old readers of the JSON.
    expect(closedForms(s).metaFirstOrder).toBe(0);
  });
});

describe("each broken assumption shows no value, and says which", () => {
  const host = { name: "GPU", share: 9, scope: "host", hang: false, newHost: true } as const;
  it.each([
    [
      "Weibull arrivals",
      { failures: { arrivals: "weibull", weibullShape: 0.7 } },
      ["fixedSync", "fixedFt", "poisson", "renewal", "ft", "meta"],
      /Weibull/,
    ],
    [
      "a limited spare pool (Poisson)",
      { spares: { pool: "limited", hosts: 4 } },
      ["poisson", "renewal", "ft", "meta"],
      /limited spare pool/,
    ],
    [
      "a limited spare pool (fixed)",
      { failures: { arrivals: "fixed" }, spares: { pool: "limited", hosts: 4 } },
      ["fixedSync", "fixedFt"],
      /limited spare pool/,
    ],
    [
      "job-scope causes",
      { failures: { causes: [host, { name: "bug", share: 1, scope: "job", hang: false, newHost: false }] } },
      ["ft"],
      /job-scope/,
    ],
    [
      "job-scope causes (fixed)",
      {
        failures: {
          arrivals: "fixed",
          causes: [host, { name: "bug", share: 1, scope: "job", hang: false, newHost: false }],
        },
      },
      ["fixedFt"],
      /job-scope/,
    ],
    [
      "striped racks",
      {
        cluster: { hostsPerRack: 4, placement: "striped" },
        failures: { causes: [host, { name: "ToR", share: 1, scope: "rack", hang: false, newHost: false }] },
      },
      ["ft"],
      /several replicas/,
    ],
    ["Poisson arrivals for the fixed-arrival row", {}, ["fixedSync", "fixedFt"], /Poisson arrivals/],
    [
      "checkpoints for the no-rollback form",
      { sync: { checkpointMinutes: 30, checkpointWriteSeconds: 10 } },
      ["poisson"],
      /rollback is possible/,
    ],
    [
      "FT-HSDP's checkpoints for its fixed-arrival form",
      { failures: { arrivals: "fixed" }, ft: { checkpointMinutes: 30, checkpointWriteSeconds: 10 } },
      ["fixedFt"],
      /checkpoints/,
    ],
    [
      "recoveries as long as the interval (fixed)",
      { failures: { arrivals: "fixed", perHostDay: 0.02 } },
      ["fixedSync", "fixedFt"],
      /as long as the interval/,
    ],
  ] as const)("%s", (_name, overrides, broken, reason) => {
    const cf = closedForms(parseScenario(overrides));
    const rows = {
      fixedSync: cf.fixedArrivals.synchronous,
      fixedFt: cf.fixedArrivals.ftHsdp,
      poisson: cf.poissonNoRollback,
      renewal: cf.syncRenewal,
      ft: cf.ftFirstOrder,
      meta: cf.metaApproximation,
    };
    for (const key of broken) {
      expect(rows[key].value, key).toBeNull();
      if (key !== "meta" || "sync" in overrides) expect(rows[key].note, key).toMatch(reason);
    }
  });

  it("a cause mix of host-scope causes alone breaks nothing: the forms take its expectation", () => {
    const cf = closedForms(
      parseScenario({
        failures: {
          causes: [host, { name: "NCCL hang", share: 1, scope: "host", hang: true, newHost: true }],
        },
      }),
    );
    expect(cf.poissonNoRollback.value).not.toBeNull();
    expect(cf.syncRenewal.value).not.toBeNull();
    expect(cf.ftFirstOrder.value).not.toBeNull();
  });
});
