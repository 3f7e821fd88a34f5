import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validScenario } from "./scenario.arbitrary.ts";
import {
  DEFAULT_SCENARIO,
  derived,
  diffFromDefaults,
  FIELD_SPECS,
  GROUPS,
  parseScenario,
  ScenarioError,
} from "./scenario.ts";

function problemsOf(input: unknown): string[] {
  try {
    parseScenario(input);
  } catch (e) {
    if (e instanceof ScenarioError) return e.problems;
    throw e;
  }
  throw new Error("expected the scenario to be rejected");
}

describe("scenario v1", () => {
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
      /cluster\.gpu: unknown field \(allowed: gpus, gpusPerHost, replicas\)/,
    );
    expect(problemsOf({ colour: "red" })[0]).toMatch(/^colour: unknown field/);
  });

  it("rejects bad enum values and non-object groups", () => {
    expect(problemsOf({ failures: { arrivals: "weibull" } })[0]).toMatch(/one of "poisson", "fixed"/);
    expect(problemsOf({ ft: 3 })[0]).toMatch(/^ft: must be an object/);
    expect(problemsOf([1, 2])[0]).toMatch(/must be a JSON object/);
    expect(problemsOf({ version: 2 })[0]).toMatch(/version.*must be 1/);
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
    expect(noSmallest).toEqual(["failures.perHostDay", "failures.hangFraction"]);
  });

  it("lists every problem at once", () => {
    expect(problemsOf({ cluster: { gpus: -1 }, sync: { restartSeconds: -5 } })).toHaveLength(2);
  });

  it("every field spec has a default inside its own range", () => {
    for (const g of GROUPS) {
      for (const [k, spec] of Object.entries(FIELD_SPECS[g])) {
        const v = (DEFAULT_SCENARIO[g] as unknown as Record<string, unknown>)[k];
        if (spec.kind === "enum") expect(spec.values).toContain(v);
        else {
          expect(typeof v).toBe("number");
          expect(v as number).toBeLessThanOrEqual(spec.max);
          expect(v as number).toBeGreaterThanOrEqual(spec.min);
        }
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
