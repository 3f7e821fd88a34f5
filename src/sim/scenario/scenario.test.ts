import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validScenario } from "../../testing/scenario.arbitrary.ts";
import {
  DEFAULT_SCENARIO,
  derived,
  diffFromDefaults,
  FIELD_SPECS,
  fieldValue,
  GROUPS,
  parseScenario,
  ScenarioError,
} from "./index.ts";

function problemsOf(input: unknown): string[] {
  try {
    parseScenario(input);
  } catch (e) {
    if (e instanceof ScenarioError) return e.problems;
    throw e;
  }
  throw new Error("expected the scenario to be rejected");
}

describe("scenario", () => {
  it("defaults are the FT-HSDP headline: 98,304 GPUs, 12 replicas, a failure every 18 minutes", () => {
    const d = derived(DEFAULT_SCENARIO);
    expect(d.hosts).toBe(12_288);
    expect(d.hostsPerReplica).toBe(1024);
    expect(d.mtbfSeconds / 60).toBeCloseTo(18, 2);
    expect(d.expectedFailures).toBeGreaterThan(2350);
    expect(d.expectedFailures).toBeLessThan(2450);
  });

  it("completes a partial scenario from the defaults", () => {
    const s = parseScenario({ cluster: { replicas: 16 }, seed: 7 });
    expect(s.cluster).toEqual({ ...DEFAULT_SCENARIO.cluster, replicas: 16 });
    expect(s.seed).toBe(7);
    expect(s.ft).toEqual(DEFAULT_SCENARIO.ft);
    expect(parseScenario({})).toEqual(DEFAULT_SCENARIO);
  });

  it("names the field and the allowed range for a wrong type", () => {
    const [p] = problemsOf({ cluster: { gpus: "many" } });
    expect(p).toContain("cluster.gpus");
    expect(p).toContain("[1, 1,000,000]");
    expect(p).toContain('"many"');
  });

  it("rejects out-of-range values with the range", () => {
    expect(problemsOf({ cluster: { gpus: 1e12 } })[0]).toMatch(
      /cluster\.gpus: got 1000000000000; must be an integer in \[1, 1,000,000\]/,
    );
    expect(problemsOf({ training: { days: 0 } })[0]).toMatch(/training\.days.*\[0\.001, 365\]/);
    expect(problemsOf({ failures: { hangFraction: 1.5 } })[0]).toMatch(/failures\.hangFraction.*\[0, 1\]/);
    expect(problemsOf({ cluster: { replicas: 2.5 } })[0]).toMatch(/cluster\.replicas.*integer/);
    expect(problemsOf({ failures: { perHostDay: Number.NaN } })[0]).toMatch(/failures\.perHostDay/);
  });

  it("rejects unknown fields, listing the allowed ones", () => {
    expect(problemsOf({ cluster: { gpu: 8 } })[0]).toMatch(
      /cluster\.gpu: unknown field \(allowed: gpus, gpusPerHost, replicas, hostsPerRack, placement\)/,
    );
    expect(problemsOf({ colour: "red" })[0]).toMatch(/^colour: unknown field/);
  });

  it("rejects bad enum values and non-object groups", () => {
    expect(problemsOf({ failures: { arrivals: "gamma" } })[0]).toMatch(
      /one of "poisson", "fixed", "weibull", "log"/,
    );
    expect(problemsOf({ ft: 3 })[0]).toMatch(/^ft: must be an object/);
    expect(problemsOf([1, 2])[0]).toMatch(/must be a JSON object/);
    expect(problemsOf({ version: 7 })[0]).toMatch(/version.*must be 1, 2, 3, 4, 5 or 6/);
  });

  it("rejects hosts that do not divide into replicas, and GPUs that do not divide into hosts", () => {
    expect(problemsOf({ cluster: { replicas: 10 } })[0]).toMatch(
      /cluster\.replicas: 12,288 hosts do not split into 10/,
    );
    expect(problemsOf({ cluster: { gpus: 98_305 } })[0]).toMatch(/multiple of cluster\.gpusPerHost/);
    expect(problemsOf({ cluster: { gpus: 16, replicas: 4 } })[0]).toMatch(
      /at most the number of hosts \(2\)/,
    );
    expect(problemsOf({ ft: { minReplicas: 13 } })[0]).toMatch(/ft\.minReplicas.*\[1, 12\]/);
  });

  it("refuses a horizon with too many expected failures to simulate, naming the largest allowed rate", () => {
    const [p] = problemsOf({
      cluster: { gpus: 1_000_000, replicas: 125 },
      training: { days: 365 },
      failures: { perHostDay: 10 },
    });
    expect(p).toMatch(/failures\.perHostDay: .* expected failures .* must be at most/);
  });

  it("refuses an interval below its smallest meaningful value by name, with the range (no subnormals)", () => {
    expect(problemsOf({ sync: { checkpointMinutes: 1e-320 } })).toEqual([
      "sync.checkpointMinutes: got 1e-320; must be 0 or a number in [0.01, 10,080]",
    ]);
    expect(problemsOf({ training: { days: 5e-324 } })[0]).toMatch(/^training\.days: .*\[0\.001, 365\]/);
    expect(problemsOf({ training: { stepSeconds: 1e-9 } })[0]).toMatch(
      /^training\.stepSeconds: .*\[0\.001, 3,600\]/,
    );
    expect(problemsOf({ detection: { hangSeconds: 1e-300 } })[0]).toMatch(
      /^detection\.hangSeconds: .*must be 0 or a number in \[0\.001, 86,400\]/,
    );
    // 0 stays allowed where it means something (no checkpoints), and so does the smallest value.
    expect(
      parseScenario({ sync: { checkpointMinutes: 0.01, checkpointWriteSeconds: 0.001 } }).sync,
    ).toMatchObject({
      checkpointMinutes: 0.01,
      checkpointWriteSeconds: 0.001,
    });
  });

  it("every time interval has a smallest meaningful value; only rates and probabilities go down to 0", () => {
    const noSmallest: string[] = [];
    for (const g of GROUPS) {
      for (const [k, spec] of Object.entries(FIELD_SPECS[g])) {
        if (spec.kind === "number" && spec.min === 0 && spec.smallest === undefined)
          noSmallest.push(`${g}.${k}`);
      }
    }
    // FTAR's step overhead is a percentage: a tiny one is a tiny slowdown, never a degenerate run.
    // §6: slow episodes per host-day are a rate, and σ = 0 means episodes of exactly the median.
    // §7: an outer sync is added to time, never divides it: a tiny one is a sync of no time; and
    // q is a ratio of progress.
    expect(noSmallest).toEqual([
      "failures.perHostDay",
      "failures.hangFraction",
      "ft.stepOverheadPercent",
      "slow.perHostDay",
      "slow.sigma",
      "diloco.syncSeconds",
      "diloco.stepEquivalence",
    ]);
  });

  it("lists every problem at once", () => {
    expect(problemsOf({ cluster: { gpus: -1 }, sync: { restartSeconds: -5 } })).toHaveLength(2);
  });

  it("every field's default passes its own validation, given alone", () => {
    for (const g of GROUPS) {
      for (const k of Object.keys(FIELD_SPECS[g])) {
        const v = fieldValue(DEFAULT_SCENARIO, g, k);
        expect(parseScenario({ [g]: { [k]: v } })).toEqual(DEFAULT_SCENARIO);
      }
    }
  });
});

describe("diffFromDefaults", () => {
  it("completing the diff gives back the scenario", () => {
    fc.assert(
      fc.property(validScenario, (s) => {
        expect(parseScenario(diffFromDefaults(s))).toEqual(s);
      }),
    );
  });

  it("is empty for the defaults", () => {
    expect(diffFromDefaults(DEFAULT_SCENARIO)).toEqual({});
  });
});

const cause = (over: Record<string, unknown> = {}) => ({
  name: "GPU",
  share: 1,
  scope: "host",
  hang: false,
  newHost: true,
  ...over,
});

describe("scenario version 2 (docs/model.md §3)", () => {
  it("the §3 defaults are version 1's behaviour, so the defaults are a version-1 scenario", () => {
    expect(DEFAULT_SCENARIO.version).toBe(1);
    expect(DEFAULT_SCENARIO.cluster).toMatchObject({ hostsPerRack: 1, placement: "packed" });
    expect(DEFAULT_SCENARIO.failures).toMatchObject({ weibullShape: 1, causes: [] });
    expect(DEFAULT_SCENARIO.ft).toMatchObject({
      hangTimeoutSeconds: 0,
      checkpointMinutes: 0,
      checkpointWriteSeconds: 0,
    });
    expect(DEFAULT_SCENARIO.spares).toMatchObject({ pool: "unlimited", hosts: 0, repairHours: 24 });
  });

  it("version follows the content: 1 without a §3 setting, 2 with one, whatever the input said", () => {
    const v1 = parseScenario({ version: 1, cluster: { replicas: 16 } });
    expect(v1).toEqual({ ...DEFAULT_SCENARIO, cluster: { ...DEFAULT_SCENARIO.cluster, replicas: 16 } });
    expect(parseScenario({ version: 2, cluster: { replicas: 16 } })).toEqual(v1);
    expect(parseScenario({ spares: { pool: "limited" } }).version).toBe(2);
    expect(parseScenario({ version: 1, failures: { arrivals: "weibull" } }).version).toBe(2);
    expect(parseScenario({ failures: { arrivals: "fixed" } }).version).toBe(1);
    // Setting a §3 field to its default is still version 1.
    expect(parseScenario({ cluster: { hostsPerRack: 1 }, failures: { causes: [] } }).version).toBe(1);
  });

  it("completes a cause's optional fields: hang false, newHost true except for job scope", () => {
    const s = parseScenario({
      failures: {
        causes: [
          { name: "GPU", share: 3, scope: "host" },
          { name: "bug", share: 1, scope: "job" },
        ],
      },
    });
    expect(s.failures.causes).toEqual([
      { name: "GPU", share: 3, scope: "host", hang: false, newHost: true },
      { name: "bug", share: 1, scope: "job", hang: false, newHost: false },
    ]);
  });

  // Bad inputs: each refused with one message naming the entry and the field.
  it("a zero share names the entry and the field", () => {
    const causes = [cause(), cause(), cause(), cause({ share: 0 })];
    expect(problemsOf({ failures: { causes } })).toEqual([
      "failures.causes[3].share: got 0; must be a number in (0, 1,000,000]",
    ]);
  });

  it("an unknown scope, an unknown key and a missing field name the entry", () => {
    expect(problemsOf({ failures: { causes: [cause({ scope: "pod" })] } })).toEqual([
      'failures.causes[0].scope: got "pod"; must be one of "host", "rack", "job"',
    ]);
    expect(problemsOf({ failures: { causes: [cause({ colour: "red" })] } })).toEqual([
      "failures.causes[0].colour: unknown field (allowed: name, share, scope, hang, newHost)",
    ]);
    expect(problemsOf({ failures: { causes: [{ name: "x", scope: "host" }] } })).toEqual([
      "failures.causes[0].share: got nothing; must be a number in (0, 1,000,000]",
    ]);
    expect(problemsOf({ failures: { causes: [cause(), 7] } })[0]).toMatch(
      /^failures\.causes\[1\]: got 7; must be an object with fields name, share, scope, hang, newHost/,
    );
  });

  it("a job-scope cause with newHost true", () => {
    expect(problemsOf({ failures: { causes: [cause(), cause({ scope: "job", newHost: true })] } })).toEqual([
      "failures.causes[1].newHost: got true; must be false for a job-scope cause (it strikes no host)",
    ]);
  });

  it("hangFraction together with causes", () => {
    expect(problemsOf({ failures: { hangFraction: 0.1, causes: [cause()] } })).toEqual([
      "failures.hangFraction: got 0.1; must be 0 when failures.causes is not empty (each cause says whether it hangs)",
    ]);
  });

  it("hosts not divisible by hostsPerRack, or racks larger than the cluster", () => {
    expect(problemsOf({ cluster: { hostsPerRack: 5 } })).toEqual([
      "cluster.hostsPerRack: 12,288 hosts do not split into racks of 5; must divide the host count",
    ]);
    expect(problemsOf({ cluster: { gpus: 64, replicas: 4, hostsPerRack: 16 } })[0]).toMatch(
      /cluster\.hostsPerRack: got 16; must be at most the number of hosts \(8\)/,
    );
  });

  it("33 causes", () => {
    const causes = Array.from({ length: 33 }, () => cause());
    expect(problemsOf({ failures: { causes } })).toEqual([
      "failures.causes: got a list of 33; must be a list of at most 32 causes {name, share, scope, hang, newHost}",
    ]);
  });

  it("a 10 KB cause name is refused and not echoed whole", () => {
    const [p, ...rest] = problemsOf({ failures: { causes: [cause({ name: "x".repeat(10_240) })] } });
    expect(rest).toEqual([]);
    expect(p).toMatch(
      /^failures\.causes\[0\]\.name: got "x{40}…" \(10240 characters\); must be a string of 1–40 characters$/,
    );
  });

  it("Weibull shape, hang timeout, spares: ranges from the field table", () => {
    expect(problemsOf({ failures: { weibullShape: 0.1 } })[0]).toMatch(
      /failures\.weibullShape: got 0\.1; must be a number in \[0\.2, 5\]/,
    );
    expect(problemsOf({ spares: { repairHours: 0 } })[0]).toMatch(/spares\.repairHours.*\[0\.001, 8,760\]/);
    expect(problemsOf({ spares: { hosts: 1.5 } })[0]).toMatch(/spares\.hosts.*integer in \[0, 100,000\]/);
    expect(problemsOf({ ft: { hangTimeoutSeconds: -1 } })[0]).toMatch(/ft\.hangTimeoutSeconds/);
  });

  it("bounds the host strikes of rack failures, not only the events", () => {
    const [p] = problemsOf({
      cluster: { hostsPerRack: 1024 },
      failures: { perHostDay: 1, causes: [cause({ scope: "rack" })] },
    });
    expect(p).toMatch(/^cluster\.hostsPerRack: .* expected host strikes .* too many to simulate/);
  });

  it("diffFromDefaults: defaults give version 1's diff; §3 settings round-trip", () => {
    const v2 = parseScenario({ spares: { pool: "limited", hosts: 4 } });
    expect(diffFromDefaults(v2)).toEqual({ spares: { pool: "limited", hosts: 4 } });
    expect(parseScenario(diffFromDefaults(v2))).toEqual(v2);
    const v1 = parseScenario({ version: 1, cluster: { replicas: 16 } });
    expect(diffFromDefaults(v1)).toEqual({ cluster: { replicas: 16 } });
    const withCauses = parseScenario({ failures: { causes: [cause()] } });
    expect(diffFromDefaults(withCauses)).toEqual({ failures: { causes: [cause()] } });
    expect(parseScenario(diffFromDefaults(withCauses))).toEqual(withCauses);
    expect(diffFromDefaults(parseScenario({ failures: { causes: [] } }))).toEqual({});
  });
});
