/**
 * The engine's Monte Carlo against SIMULATION.md §3's closed forms (renewal.test.ts checks the
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
import { closedForms } from "./closedForms.ts";
import { generateFailureTrace } from "./failureTrace.ts";
import { seedOf } from "./monteCarlo.ts";
import { ftHsdpPolicy, type Policy, synchronousPolicy } from "./policies.ts";
import { derived, parseScenario, type Scenario } from "./scenario.ts";

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
