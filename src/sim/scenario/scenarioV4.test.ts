/** Version 4's fields (docs/model.md §5): defaults, version, ranges and a log's refusals by name. */
import { describe, expect, it } from "vitest";
import { runScenario } from "../engine.ts";
import { DEFAULT_SCENARIO, parseScenario, ScenarioError, type ScenarioInput } from "./index.ts";

function problemsOf(input: unknown): string[] {
  try {
    parseScenario(input);
  } catch (e) {
    if (e instanceof ScenarioError) return e.problems;
    throw e;
  }
  throw new Error("expected the scenario to be rejected");
}

/** A small fleet: 16 hosts in 4 replicas. */
const small: ScenarioInput = {
  cluster: { gpus: 128, gpusPerHost: 8, replicas: 4 },
  training: { days: 2 },
  failures: { perHostDay: 0.5 },
};
const log = (events: number[][], extra: object = {}) => ({
  ...small,
  failures: { ...small.failures, arrivals: "log", log: { hosts: 16, days: 2, events, ...extra } },
});

describe("scenario version 4", () => {
  it("every §5 default is version 3's: the defaults stay version 1, a §5 field makes it 4", () => {
    expect(DEFAULT_SCENARIO.version).toBe(1);
    expect(parseScenario({}).version).toBe(1);
    expect(parseScenario({ policies: ["ftHsdp"] }).version).toBe(3);
    expect(parseScenario({ failures: { badHosts: { share: 0.25, factor: 6 } } }).version).toBe(4);
    expect(parseScenario({ spares: { repairLaw: "lognormal" } }).version).toBe(4);
    expect(parseScenario({ spares: { repairSigma: 2 } }).version).toBe(4);
    expect(parseScenario(log([[100, 0, 3]])).version).toBe(4);
    // A full file that writes the defaults back is the same scenario.
    expect(parseScenario(JSON.parse(JSON.stringify(DEFAULT_SCENARIO)))).toEqual(DEFAULT_SCENARIO);
  });

  it("refuses lemon and repair settings out of range, naming the field and the range", () => {
    expect(problemsOf({ failures: { badHosts: { share: 1, factor: 2 } } })[0]).toMatch(
      /^failures\.badHosts\.share: got 1; must be a number in \[0, 1\)/,
    );
    expect(problemsOf({ failures: { badHosts: { share: 0.1, factor: 0.5 } } })[0]).toMatch(
      /^failures\.badHosts\.factor: got 0\.5; must be a number in \[1, 1,000\]/,
    );
    expect(problemsOf({ spares: { repairSigma: 5 } })[0]).toMatch(
      /^spares\.repairSigma: got 5; must be a number in \[0\.01, 4\]/,
    );
    expect(problemsOf({ spares: { repairLaw: "weibull" } })[0]).toMatch(
      /^spares\.repairLaw: .*"fixed", "lognormal"/,
    );
  });

  it("refuses a log that does not fit the scenario, by field", () => {
    const one = (events: number[][], extra: object = {}) => problemsOf(log(events, extra));
    expect(one([[0, 0, 1]], { hosts: 12 })[0]).toMatch(
      /^failures\.log\.hosts: got 12; must equal the cluster's hosts \(16\)/,
    );
    expect(one([[0, 0, 1]], { days: 1 })[0]).toMatch(
      /^failures\.log\.days: got 1; must be at least training\.days \(2\)/,
    );
    expect(
      one([
        [10, 0, 1],
        [5, 0, 2],
      ])[0],
    ).toMatch(/^failures\.log\.events\[1\]\[0\]: got 5, before .*sorted/);
    expect(one([[172_800, 0, 1]])[0]).toMatch(/^failures\.log\.events\[0\]\[0\]: .*\[0, 172,800\)/);
    expect(one([[1, 2, 1]])[0]).toMatch(
      /^failures\.log\.events\[0\]\[1\]: got cause 2; .*0 = fail-stop, 1 = hang/,
    );
    expect(one([[1, 0, 16]])[0]).toMatch(
      /^failures\.log\.events\[0\]\[2\]: got host 16; must be an integer in \[0, 15\]/,
    );
    expect(one([[1, 0, 3, 3]])[0]).toMatch(/^failures\.log\.events\[0\]\[3\]: host 3 is listed twice/);
    expect(one([[1, 0]])[0]).toMatch(/^failures\.log\.events\[0\]: must list at least one host/);
    const many = Array.from({ length: 65 }, (_, h) => h % 16);
    expect(one([[1, 0, ...many]])[0]).toMatch(/^failures\.log\.events\[0\]: .*at most 64 hosts/);
    const tooMany = Array.from({ length: 20_001 }, (_, i) => [i, 0, 0]);
    expect(one(tooMany)[0]).toMatch(
      /^failures\.log\.events: got a list of 20001; must be a list of at most 20,000 events/,
    );
    // With causes, a job-scope one lists no host.
    const job = {
      ...log([[1, 0, 4]]),
      failures: {
        ...log([[1, 0, 4]]).failures,
        causes: [{ name: "bug", share: 1, scope: "job" }],
      },
    };
    expect(problemsOf(job)[0]).toMatch(
      /^failures\.log\.events\[0\]: a job-scope cause .* must list no hosts/,
    );
  });

  it("share 0 draws no lemon and factor alone changes nothing: version 3's runs, bit for bit", () => {
    const base = parseScenario({ ...small, policies: ["synchronous", "ftHsdp", "inMemory", "hotSpare"] });
    const inert = parseScenario({
      ...small,
      policies: ["synchronous", "ftHsdp", "inMemory", "hotSpare"],
      failures: { ...small.failures, badHosts: { share: 0, factor: 50 } },
    });
    for (const seed of [1, 2, 3]) {
      const a = runScenario(base, { seed, record: true });
      const b = runScenario(inert, { seed, record: true });
      expect({ ...b, scenario: null }).toEqual({ ...a, scenario: null });
    }
  });
});
