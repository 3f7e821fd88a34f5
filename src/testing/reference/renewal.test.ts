/**
 * The reference's synchronous job against docs/model.md §3's exact renewal form, on its own dice:
 * ETTR = E[e^(−λD)] · λC / (e^(λ(C+W)) − 1). Checks the reference (arrivals, causes, detection,
 * rollback) without the engine; the form is a long-run average, a 30-day horizon is long enough.
 */
import { describe, expect, it } from "vitest";
import { derived, parseScenario } from "../../sim/scenario/index.ts";
import { type Cause, type Knobs, referenceFailures, syncDetectSeconds, v1Knobs } from "./failures.ts";
import { referenceSynchronousV2 } from "./independent.ts";

const MIX: Cause[] = [
  { name: "GPU", share: 6, scope: "host", hang: false, newHost: true },
  { name: "NCCL hang", share: 2, scope: "host", hang: true, newHost: true },
  { name: "software", share: 1, scope: "job", hang: false, newHost: false },
  { name: "ToR", share: 1, scope: "rack", hang: true, newHost: false },
];

describe("reference synchronous job vs the renewal closed form (§3)", () => {
  it.each([
    ["§3 worked check: Poisson, 30-min checkpoints, 10 s writes (22.0 %)", [], "poisson", 30, 10],
    ["a cause mix with hangs, racks and job failures, Weibull k = 1", MIX, "weibull", 20, 60],
  ] as const)("%s", (_name, causes, arrivals, checkpointMinutes, write) => {
    const s = parseScenario({
      cluster: { gpus: 98_304, gpusPerHost: 8, replicas: 12 },
      sync: { checkpointMinutes, checkpointWriteSeconds: write },
    });
    const k: Knobs = { ...v1Knobs(s), arrivals, causes, hostsPerRack: 4 };
    const { lambdaPerSecond: l } = derived(s);
    const C = checkpointMinutes * 60;
    const shares = causes.reduce((a, c) => a + c.share, 0);
    // E[e^(−λD)] over the mix; D = detect + restart (an unlimited pool: no wait).
    const meanDecay =
      causes.length === 0
        ? Math.exp(-l * (s.detection.failStopSeconds + s.sync.restartSeconds))
        : causes.reduce((a, c) => {
            const detect = syncDetectSeconds(s, {
              time: 0,
              scope: c.scope,
              target: 0,
              hang: c.hang,
              newHost: c.newHost,
              cause: 0,
            });
            return a + (c.share / shares) * Math.exp(-l * (detect + s.sync.restartSeconds));
          }, 0);
    const closedForm = (meanDecay * l * C) / (Math.exp(l * (C + write)) - 1);
    if (causes.length === 0) expect(closedForm).toBeCloseTo(0.22, 3);

    const seeds = 40;
    const xs = Array.from(
      { length: seeds },
      (_, i) => referenceSynchronousV2(s, k, referenceFailures(s, k, 1 + 7919 * i)).ettr,
    );
    const mean = xs.reduce((a, b) => a + b, 0) / seeds;
    const se = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (seeds - 1) / seeds);
    // 3.5 standard errors, plus the start-up edge of a finite horizon (one cycle in 30 days).
    expect(Math.abs(mean - closedForm)).toBeLessThanOrEqual(3.5 * se + 1e-3);
  });
});
