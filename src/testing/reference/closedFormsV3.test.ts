/**
 * The closed forms of docs/model.md §3 (as corrected) and §4, written here again from the spec's
 * text, against what the engine shows (closedFormsOf, `closedForm.policies.<key>`):
 * 1. on held-out generated scenarios, the engine's value equals the spec's formula wherever the
 *    engine gives one, and it gives one wherever the spec says the form applies;
 * 2. the exact forms (inMemory, hotSpare, the synchronous renewal) agree with the Monte Carlo,
 *    the engine's and the independent reference's, within their standard error.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FT_FORM_MAX_LOAD, LONG_RUN_MIN_FAILURES, META_MAX_LOAD } from "../../sim/closedForms/closedForms.ts";
import { runOnTrace } from "../../sim/engine.ts";
import { generateFailureTrace } from "../../sim/failures/failureTrace.ts";
import { seedOf } from "../../sim/monteCarlo/monteCarlo.ts";
import { closedFormsOf } from "../../sim/policies/policyForms.ts";
import type { PolicyKey } from "../../sim/policies/policyKeys.ts";
import { derived, parseScenario, type Scenario, type ScenarioInput } from "../../sim/scenario/index.ts";
import type { PolicyMetrics } from "../../sim/types.ts";
import { v3Scenario } from "../scenario.arbitrary.ts";
import { referenceFailures } from "./failures.ts";
import { knobsOf } from "./knobs.ts";
import { REFERENCE_POLICIES } from "./policies.ts";

/** One kind of failure of the mix: its probability, and detection under each policy (§3 "Detection"). */
interface Kind {
  p: number;
  syncDetect: number;
  ftDetect: number;
}

/** The cause mix (or hangFraction without one) as kinds of failure, host scope assumed. */
function kinds(s: Scenario): Kind[] {
  const ftHang =
    s.ft.hangTimeoutSeconds > 0
      ? Math.min(s.detection.hangSeconds, s.ft.hangTimeoutSeconds)
      : s.detection.hangSeconds;
  const kind = (p: number, hang: boolean): Kind => ({
    p,
    syncDetect: hang ? s.detection.hangSeconds : s.detection.failStopSeconds,
    ftDetect: hang ? ftHang : s.detection.failStopSeconds,
  });
  const causes = s.failures.causes;
  if (causes.length === 0)
    return [kind(1 - s.failures.hangFraction, false), kind(s.failures.hangFraction, true)].filter(
      (k) => k.p > 0,
    );
  const total = causes.reduce((a, c) => a + c.share, 0);
  return causes.map((c) => kind(c.share / total, c.hang));
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/** §3: E[e^(−λD)] · λC / (e^(λ(C+W)) − 1), D = detect + restart; C = 0 gives E[e^(−λD)]. */
function renewal(s: Scenario, restart: number, C: number, W: number): number {
  const { lambdaPerSecond: l } = derived(s);
  const e = kinds(s).reduce((a, k) => a + k.p * Math.exp(-l * (k.syncDetect + restart)), 0);
  return clamp01(l > 0 && C > 0 ? (e * l * C) / (Math.exp(l * (C + W)) - 1) : e);
}

/**
 * §3 FT-HSDP first order, §4 divided by 1 + o/100: e^(−λ·E[S]) · (1 − λT/R) · C/(C + W), S the
 * global stall (detect + reconfigure + rejoin, + catch-up when blocking), T the down time
 * (restart, + catch-up when non-blocking).
 */
function ftForm(s: Scenario): number {
  const { lambdaPerSecond: l } = derived(s);
  const ft = s.ft;
  const blocking = ft.catchUp === "blocking";
  const ES = kinds(s).reduce(
    (a, k) =>
      a + k.p * (k.ftDetect + ft.reconfigureSeconds + ft.rejoinSeconds + (blocking ? ft.catchUpSeconds : 0)),
    0,
  );
  const T = ft.replicaRestartSeconds + (blocking ? 0 : ft.catchUpSeconds);
  const C = ft.checkpointMinutes * 60;
  const writes = C > 0 ? C / (C + ft.checkpointWriteSeconds) : 1;
  const R = s.cluster.replicas;
  return clamp01((Math.exp(-l * ES) * (1 - (l * T) / R) * writes) / (1 + ft.stepOverheadPercent / 100));
}

/** λ(S + T) of FT-HSDP's first-order form, with E[S] over the mix. */
function ftLoad(s: Scenario): number {
  const { lambdaPerSecond: l } = derived(s);
  const ft = s.ft;
  const blocking = ft.catchUp === "blocking";
  const ES = kinds(s).reduce(
    (a, k) =>
      a + k.p * (k.ftDetect + ft.reconfigureSeconds + ft.rejoinSeconds + (blocking ? ft.catchUpSeconds : 0)),
    0,
  );
  return l * (ES + ft.replicaRestartSeconds + (blocking ? 0 : ft.catchUpSeconds));
}

/** Whether the horizon holds enough failures for a long-run rate. */
const longRunHorizon = (s: Scenario) => derived(s).expectedFailures >= LONG_RUN_MIN_FAILURES;

/** §4's common assumptions: Poisson, host scope only, unlimited spares. */
const poissonHostOnly = (s: Scenario) =>
  s.failures.arrivals === "poisson" &&
  s.spares.pool === "unlimited" &&
  s.failures.causes.every((c) => c.scope === "host");

/**
 * Held-out scenarios: v3Scenario, half of them pushed into the forms' regime (Poisson, host scope,
 * unlimited spares), and half of those into hotSpare's too (standbys aplenty, refilled at once, no
 * sync checkpoints), so that every form is compared on many cases.
 */
const heldOut = fc.tuple(v3Scenario, fc.boolean(), fc.boolean()).map(([s, inRegime, standbysAplenty]) =>
  inRegime
    ? parseScenario({
        ...s,
        policies: ["synchronous", "ftHsdp", "inMemory", "hotSpare"],
        failures: {
          ...s.failures,
          arrivals: "poisson",
          causes: s.failures.causes.map((c) => ({ ...c, scope: "host" as const, newHost: true })),
        },
        spares: { ...s.spares, pool: "unlimited" },
        ...(standbysAplenty
          ? {
              sync: { ...s.sync, checkpointMinutes: 0 },
              hotSpare: { ...s.hotSpare, standbys: 1000, refillMinutes: 0 },
            }
          : {}),
      })
    : s,
);

describe("closed forms equal docs/model.md's formulas on held-out scenarios", () => {
  it("synchronous renewal, inMemory, hotSpare and FT-HSDP (with its step overhead)", {
    timeout: 60_000,
  }, () => {
    fc.assert(
      fc.property(heldOut, (s) => {
        const forms = closedFormsOf(s).policies ?? {};
        // Long-run rates: "—" below LONG_RUN_MIN_FAILURES expected failures in the horizon.
        const regime = poissonHostOnly(s) && longRunHorizon(s);
        const same = (key: PolicyKey, value: number) => {
          const f = forms[key];
          if (f === undefined) return;
          expect(f.value, `${key}: ${f.note}`).not.toBeNull();
          expect(Math.abs(f.value! - value), `${key}: engine ${f.value}, spec ${value}`).toBeLessThanOrEqual(
            1e-12,
          );
        };
        const sync = forms.synchronous;
        if (sync && sync.value !== null)
          same(
            "synchronous",
            renewal(s, s.sync.restartSeconds, s.sync.checkpointMinutes * 60, s.sync.checkpointWriteSeconds),
          );
        else if (sync) expect(regime, sync.note).toBe(false);

        const im = forms.inMemory;
        const imForm = () =>
          renewal(s, s.inMemory.restartSeconds, s.inMemory.checkpointMinutes * 60, s.inMemory.writeSeconds);
        if (im && im.value !== null) {
          expect(regime, im.note).toBe(true);
          same("inMemory", imForm());
        } else if (im) expect(regime, im.note).toBe(false);

        const hs = forms.hotSpare;
        if (hs && hs.value !== null) {
          // §4: standbys never short and no sync checkpoints: E[e^(−λD)], D = detect + migrate.
          expect(regime && s.sync.checkpointMinutes === 0 && s.cluster.replicas >= 2, hs.note).toBe(true);
          same("hotSpare", renewal(s, s.hotSpare.migrateSeconds, 0, 0));
        } else if (hs && regime && s.sync.checkpointMinutes === 0 && s.cluster.replicas >= 2)
          // The only other reason it may give: standbys can run short (a refill delay, or too few).
          expect(hs.note).toMatch(/standbys/);

        const ft = forms.ftHsdp;
        // The spec's form runs on R − 1 replicas during T; the engine stalls instead when that is
        // below minReplicas (a refinement the spec does not write): compare where they coincide.
        if (ft && ft.value !== null && s.cluster.replicas - 1 >= s.ft.minReplicas) {
          expect(ftLoad(s), ft.note).toBeLessThanOrEqual(FT_FORM_MAX_LOAD);
          same("ftHsdp", ftForm(s));
        } else if (
          ft &&
          ft.value === null &&
          s.cluster.replicas - 1 >= s.ft.minReplicas &&
          !ft.note.startsWith("more than R − minReplicas")
        )
          expect(
            regime && s.failures.causes.every((c) => c.scope === "host") && ftLoad(s) <= FT_FORM_MAX_LOAD,
            ft.note,
          ).toBe(false);
      }),
      { numRuns: 400 },
    );
  });
});

/**
 * §3 fixed arrivals, every τ = 1/λ: synchronous (τ − D)/τ, or with checkpoints k·C/τ with
 * k = ⌊(τ − D)/(C + W)⌋ (each window keeps its completed checkpoints), averaged over the mix.
 */
function fixedSync(s: Scenario): number {
  const tau = derived(s).mtbfSeconds;
  const C = s.sync.checkpointMinutes * 60;
  const W = s.sync.checkpointWriteSeconds;
  return clamp01(
    kinds(s).reduce((a, k) => {
      const window = tau - k.syncDetect - s.sync.restartSeconds;
      return a + (k.p * (C > 0 ? Math.floor(window / (C + W)) * C : window)) / tau;
    }, 0),
  );
}

/** §3 fixed arrivals, FT-HSDP: (τ − S − T/R)/τ with E[S] over the mix, divided by 1 + o/100 (§4). */
function fixedFt(s: Scenario): number {
  const tau = derived(s).mtbfSeconds;
  const ft = s.ft;
  const blocking = ft.catchUp === "blocking";
  const ES = kinds(s).reduce(
    (a, k) =>
      a + k.p * (k.ftDetect + ft.reconfigureSeconds + ft.rejoinSeconds + (blocking ? ft.catchUpSeconds : 0)),
    0,
  );
  const T = ft.replicaRestartSeconds + (blocking ? 0 : ft.catchUpSeconds);
  return clamp01(clamp01((tau - ES - T / s.cluster.replicas) / tau) / (1 + ft.stepOverheadPercent / 100));
}

/** λ(u₀ + C + W): what Meta's model must keep small. */
function metaLoad(s: Scenario): number {
  const { lambdaPerSecond: l } = derived(s);
  const u0 = kinds(s).reduce((a, k) => a + k.p * k.syncDetect, 0) + s.sync.restartSeconds;
  return l * (u0 + s.sync.checkpointMinutes * 60 + s.sync.checkpointWriteSeconds);
}

/** §1 Meta's first-order model: (1 − λ(u₀ + Δt/2)) / (1 + w/Δt), u₀ = E[detect] + restart. */
function meta(s: Scenario): number {
  const { lambdaPerSecond: l } = derived(s);
  const C = s.sync.checkpointMinutes * 60;
  const u0 = kinds(s).reduce((a, k) => a + k.p * k.syncDetect, 0) + s.sync.restartSeconds;
  return (1 - l * (u0 + C / 2)) / (1 + s.sync.checkpointWriteSeconds / C);
}

describe("the fixed-arrival forms and Meta's model equal docs/model.md's on held-out scenarios", () => {
  const scenarios = fc
    .tuple(v3Scenario, fc.constantFrom("fixed" as const, "poisson" as const))
    .map(([s, arrivals]) => {
      // Long enough for a long-run rate (LONG_RUN_MIN_FAILURES) where the failure bound allows.
      const lambdaPerDay = derived(s).lambdaPerSecond * 86_400;
      const days = Math.min(365, Math.max(s.training.days, (1.5 * LONG_RUN_MIN_FAILURES) / lambdaPerDay));
      const long = { ...s, training: { ...s.training, days }, failures: { ...s.failures, arrivals } };
      try {
        return parseScenario(long);
      } catch {
        return parseScenario({ ...s, failures: { ...s.failures, arrivals } });
      }
    });
  it("k·C/τ with rollback, (τ − S − T/R)/τ for FT-HSDP, and '—' rather than a clamped 0 % for Meta's", {
    timeout: 60_000,
  }, () => {
    const seen = { sync: 0, syncWithCheckpoints: 0, ft: 0, meta: 0, metaOutOfRegime: 0 };
    fc.assert(
      fc.property(scenarios, (s) => {
        const f = closedFormsOf(s);
        const tau = derived(s).mtbfSeconds;
        const maxD = Math.max(...kinds(s).map((k) => k.syncDetect + s.sync.restartSeconds));
        const fixedRegime =
          s.failures.arrivals === "fixed" && s.spares.pool === "unlimited" && maxD < tau && longRunHorizon(s);
        const sync = f.fixedArrivals.synchronous;
        if (sync.value !== null) {
          expect(fixedRegime, sync.note).toBe(true);
          expect(Math.abs(sync.value - fixedSync(s)), sync.note).toBeLessThanOrEqual(1e-12);
          seen.sync++;
          if (s.sync.checkpointMinutes > 0) seen.syncWithCheckpoints++;
        } else expect(fixedRegime, sync.note).toBe(false);

        const ft = f.fixedArrivals.ftHsdp;
        if (ft.value !== null) {
          // Never shown where rollback is possible: no FT checkpoints, no job-scope causes.
          expect(s.ft.checkpointMinutes, ft.note).toBe(0);
          expect(
            s.failures.causes.some((c) => c.scope === "job"),
            ft.note,
          ).toBe(false);
          if (s.cluster.replicas - 1 >= s.ft.minReplicas) {
            expect(Math.abs(ft.value - fixedFt(s)), ft.note).toBeLessThanOrEqual(1e-12);
            seen.ft++;
          }
        }

        const m = f.metaApproximation;
        if (
          s.sync.checkpointMinutes > 0 &&
          s.failures.arrivals === "poisson" &&
          s.spares.pool === "unlimited"
        ) {
          const raw = meta(s);
          if (raw > 0 && metaLoad(s) <= META_MAX_LOAD && longRunHorizon(s)) {
            expect(Math.abs((m.value ?? Number.NaN) - Math.min(1, raw)), m.note).toBeLessThanOrEqual(1e-12);
            seen.meta++;
          } else {
            expect(m.value, m.note).toBeNull();
            expect(m.note).toMatch(/outside its regime|a long-run rate/);
            seen.metaOutOfRegime++;
          }
        } else expect(m.value, m.note).toBeNull();
      }),
      // Seeded: the branch counts below are then the same on every run (unseeded, FT-HSDP's branch
      // was reached exactly 5 times in one of CI's runs and the suite failed on chance).
      { numRuns: 400, seed: 20261207 },
    );
    // The generator reaches every branch (not a pass on nothing).
    for (const [branch, n] of Object.entries(seen)) expect(n, branch).toBeGreaterThan(5);
  });

  it("fixed arrivals every 18 min with 5-minute checkpoints: k·C/τ agrees with the reference's runs", () => {
    // §3's case: τ = 1,080 s, D = 600 s: each window of 480 s completes one 5-minute checkpoint
    // (300 + 30 s write) and keeps 300 s: 27.8 %, where (τ − D)/τ would say 44.4 %.
    const s = parseScenario({
      ...HEADLINE,
      failures: { perHostDay: 0.00651, arrivals: "fixed" },
      sync: { checkpointMinutes: 5, checkpointWriteSeconds: 30 },
      policies: ["synchronous", "hotSpare"],
      hotSpare: { standbys: 0 },
    });
    const form = closedFormsOf(s).fixedArrivals.synchronous;
    expect(form.value).toBeCloseTo(fixedSync(s), 12);
    expect(form.value).toBeCloseTo(300 / derived(s).mtbfSeconds, 12);
    const k = knobsOf(s);
    const failures = referenceFailures(s, k, 1);
    // Arrivals are fixed: one run is the whole answer, up to the last partial window.
    const edge = derived(s).mtbfSeconds / derived(s).horizonSeconds;
    for (const policy of ["synchronous", "hotSpare"] as const)
      expect(
        Math.abs(REFERENCE_POLICIES[policy]!(s, k, failures).ettr - form.value!),
        policy,
      ).toBeLessThanOrEqual(edge);
  });
});

/** Mean ETTR of a policy over n runs, and its standard error. */
function meanSe(xs: number[]): { mean: number; se: number } {
  const n = xs.length;
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  return { mean, se: Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1) / n) };
}

const HEADLINE = { cluster: { gpus: 98_304, gpusPerHost: 8, replicas: 12 }, training: { days: 10 } } as const;
/** Host-scope causes only, with hangs found by a 600 s watchdog. */
const HOST_MIX = [
  { name: "GPU", share: 6, scope: "host", hang: false, newHost: true },
  { name: "NCCL hang", share: 2, scope: "host", hang: true, newHost: false },
] as const;

describe("the exact forms agree with the Monte Carlo (engine's and reference's) within error", () => {
  it.each([
    ["inMemory, §4 defaults (3-min checkpoints, 2 s writes, 300 s restart)", "inMemory", {}],
    [
      "inMemory, host causes with 600 s hangs, 10-min checkpoints, 20 s writes",
      "inMemory",
      {
        failures: { perHostDay: 0.00651, causes: [...HOST_MIX] },
        inMemory: { checkpointMinutes: 10, writeSeconds: 20, restartSeconds: 200, persistEvery: 3 },
      },
    ],
    ["hotSpare, 4 standbys refilled at once", "hotSpare", { hotSpare: { standbys: 4, refillMinutes: 0 } }],
    [
      "hotSpare, host causes with 600 s hangs, 20 standbys",
      "hotSpare",
      {
        failures: { perHostDay: 0.00651, causes: [...HOST_MIX] },
        hotSpare: { standbys: 20, refillMinutes: 0 },
      },
    ],
    [
      "synchronous renewal, §3's worked check (30-min checkpoints, 10 s writes: 22.0 %)",
      "synchronous",
      { sync: { checkpointMinutes: 30, checkpointWriteSeconds: 10 } },
    ],
    [
      "synchronous renewal, host causes with 600 s hangs, 20-min checkpoints, 60 s writes",
      "synchronous",
      {
        failures: { perHostDay: 0.00651, causes: [...HOST_MIX] },
        sync: { checkpointMinutes: 20, checkpointWriteSeconds: 60 },
      },
    ],
  ] as [string, PolicyKey, ScenarioInput][])("%s", { timeout: 60_000 }, (_name, policy, over) => {
    const s = parseScenario({ ...HEADLINE, ...over, policies: [policy] });
    const form = closedFormsOf(s).policies?.[policy];
    expect(form?.value, form?.note).not.toBeNull();
    const value = form!.value!;
    const n = 24;
    const engine = meanSe(
      Array.from(
        { length: n },
        (_, i) => (runOnTrace(s, generateFailureTrace(s, seedOf(s, i)))[policy] as PolicyMetrics).ettr,
      ),
    );
    const k = knobsOf(s);
    const reference = meanSe(
      Array.from(
        { length: n },
        (_, i) => REFERENCE_POLICIES[policy]!(s, k, referenceFailures(s, k, 104_729 * i + 3)).ettr,
      ),
    );
    // 4 standard errors, plus the start-up edge of a finite horizon: at most one checkpoint cycle
    // (or one recovery) in 10 days, a share of (C + W + D)/H ≤ 1e-3 here.
    const edge = 1e-3;
    for (const [who, m] of [
      ["engine", engine],
      ["reference", reference],
    ] as const)
      expect(
        Math.abs(m.mean - value),
        `${who}: ${m.mean} ± ${m.se} vs the form's ${value}`,
      ).toBeLessThanOrEqual(4 * m.se + edge);
  });
});
