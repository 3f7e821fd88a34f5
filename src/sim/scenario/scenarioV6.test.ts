/** Version 6's fields (docs/model.md §7): defaults, version, ranges and the overlap refusal by name. */
import { describe, expect, it } from "vitest";
import { expectedEventsPerRun } from "../monteCarlo/budget.ts";
import { DEFAULT_SCENARIO, diffFromDefaults, parseScenario, ScenarioError } from "./index.ts";
import { expectedReplicaRounds } from "./roundWork.ts";

function problemsOf(input: unknown): string[] {
  try {
    parseScenario(input);
  } catch (e) {
    if (e instanceof ScenarioError) return e.problems;
    throw e;
  }
  throw new Error("expected the scenario to be rejected");
}

describe("scenario version 6", () => {
  it("the diloco defaults are version 5's scenario: the defaults stay version 1, a diloco field makes it 6", () => {
    expect(DEFAULT_SCENARIO.diloco).toEqual({
      syncEvery: 100,
      syncSeconds: 60,
      overlapSteps: 0,
      stepEquivalence: 1,
    });
    expect(parseScenario({}).version).toBe(1);
    expect(parseScenario({ slow: { perHostDay: 0.01 } }).version).toBe(5);
    expect(parseScenario({ diloco: { syncEvery: 50 } }).version).toBe(6);
    expect(parseScenario({ diloco: { syncSeconds: 12.5 } }).version).toBe(6);
    expect(parseScenario({ diloco: { stepEquivalence: 0.9 } }).version).toBe(6);
    expect(parseScenario({ diloco: { overlapSteps: 5 } }).version).toBe(6);
    // Written back at their defaults, they change nothing: an old link's diff stays the same.
    expect(diffFromDefaults(parseScenario({ diloco: { ...DEFAULT_SCENARIO.diloco } }))).toEqual({});
    expect(parseScenario({ version: 6 }).version).toBe(1);
  });

  it("refuses each field out of its range, naming the field and the range", () => {
    expect(problemsOf({ diloco: { syncEvery: 0 } })[0]).toMatch(
      /^diloco\.syncEvery: got 0; must be an integer in \[1, 100,000\]/,
    );
    expect(problemsOf({ diloco: { syncEvery: 2.5 } })[0]).toMatch(
      /^diloco\.syncEvery: got 2.5; must be an integer/,
    );
    expect(problemsOf({ diloco: { syncSeconds: -1 } })[0]).toMatch(
      /^diloco\.syncSeconds: got -1; must be a number in \[0, 86,400\]/,
    );
    expect(problemsOf({ diloco: { stepEquivalence: 0 } })[0]).toMatch(
      /^diloco\.stepEquivalence: got 0; must be a number in \(0, 1\]/,
    );
    expect(problemsOf({ diloco: { stepEquivalence: 1.1 } })[0]).toMatch(/^diloco\.stepEquivalence: got 1.1/);
    expect(problemsOf({ diloco: { overlapSteps: -1 } })[0]).toMatch(/^diloco\.overlapSteps: got -1/);
    expect(problemsOf({ diloco: { window: 3 } })[0]).toMatch(
      /^diloco\.window: unknown field \(allowed: syncEvery, syncSeconds, overlapSteps, stepEquivalence\)/,
    );
  });

  it("refuses an overlap of H steps or more, naming both fields", () => {
    const [p] = problemsOf({ diloco: { syncEvery: 10, overlapSteps: 10 } });
    expect(p).toMatch(/^diloco\.overlapSteps: got 10; must be an integer in \[0, 9\]/);
    expect(p).toContain("diloco.syncEvery");
    expect(problemsOf({ diloco: { syncEvery: 1, overlapSteps: 1 } })[0]).toMatch(/\[0, 0\]/);
    expect(parseScenario({ diloco: { syncEvery: 10, overlapSteps: 9 } }).diloco.overlapSteps).toBe(9);
  });
});

describe("the cost of rounds", () => {
  it("refuses a year of 1-step rounds by name, with the expected count and the bound", () => {
    const input = {
      policies: ["synchronous", "diloco"],
      training: { days: 365, stepSeconds: 1 },
      diloco: { syncEvery: 1 },
    };
    expect(() => parseScenario(input)).toThrow(
      /diloco\.syncEvery: 378,432,000 expected replica-rounds .* is too many to simulate \(at most 1,000,000\)/,
    );
  });
  it("leaves the same scenario alone where no strategy runs in rounds, and counts rounds in a run's cost", () => {
    const plain = parseScenario({ training: { days: 365, stepSeconds: 1 }, diloco: { syncEvery: 1 } });
    expect(expectedReplicaRounds(plain)).toBe(0);
    const withRounds = parseScenario({ policies: ["synchronous", "diloco"] });
    expect(expectedReplicaRounds(withRounds)).toBe(2592 * 12);
    expect(expectedEventsPerRun(withRounds)).toBeGreaterThan(
      expectedEventsPerRun(parseScenario({})) + 2592 * 12 - 1,
    );
  });
});
