/**
 * The scenario's version-3 fields (docs/model.md §4): `policies`, the `inMemory` and `hotSpare`
 * groups, FT-HSDP's own costs. Bad input is refused by name with the allowed range; the version
 * follows from the content; a v3 setting round-trips through a share link.
 */
import { describe, expect, it } from "vitest";
import { decodeScenarioLink, encodeScenarioHash } from "../../link/scenarioLink.ts";
import { V3_POLICIES } from "../../testing/scenario.arbitrary.ts";
import { MAX_POLICIES, policiesAllowed, policyKeys } from "../policies/policyKeys.ts";
import { diffFromDefaults, parseScenario, ScenarioError } from "./index.ts";

const literal = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function problemsOf(input: unknown): string[] {
  try {
    parseScenario(input);
  } catch (e) {
    if (e instanceof ScenarioError) return e.problems;
    throw e;
  }
  throw new Error("expected the scenario to be rejected");
}

describe("version-3 scenario fields", () => {
  it("defaults: the two policies of version 2, and a version-1 scenario", () => {
    const s = parseScenario({});
    expect(s.policies).toEqual(["synchronous", "ftHsdp"]);
    expect(s.version).toBe(1);
    expect(s.inMemory).toEqual({
      checkpointMinutes: 3,
      writeSeconds: 2,
      restartSeconds: 300,
      persistEvery: 10,
    });
    expect(s.hotSpare).toEqual({ standbys: 2, migrateSeconds: 90, refillMinutes: 30 });
    expect(s.ft).toMatchObject({ stepOverheadPercent: 0, restrike: "stall" });
  });

  it("refuses policies empty, too many entries, a duplicate and an unknown key, by name (the registry's words)", () => {
    const allowed = policiesAllowed();
    const oneOf = policyKeys()
      .map((k) => `"${k}"`)
      .join(", ");
    expect(allowed).toBe(`a list of 1–${MAX_POLICIES} distinct keys of ${oneOf}`);
    expect(problemsOf({ policies: [] })[0]).toMatch(new RegExp(`^policies: .*must be ${literal(allowed)}`));
    const tooMany = Array.from({ length: MAX_POLICIES + 1 }, (_, i) => V3_POLICIES[i % V3_POLICIES.length]);
    expect(problemsOf({ policies: tooMany })[0]).toMatch(
      new RegExp(`^policies: got a list of ${MAX_POLICIES + 1}; must be ${literal(allowed)}`),
    );
    expect(problemsOf({ policies: ["ftHsdp", "inMemory", "ftHsdp"] })).toEqual([
      `policies[2]: got "ftHsdp" a second time; must be ${allowed}`,
    ]);
    expect(problemsOf({ policies: ["ftHsdp", "checkpointless"] })[0]).toMatch(
      new RegExp(`^policies\\[1\\]: got "checkpointless"; must be one of ${literal(oneOf)}`),
    );
    expect(problemsOf({ policies: "ftHsdp" })[0]).toMatch(/^policies: /);
  });

  it("refuses negative standbys, an overhead of 1,000 % or more and an unknown restrike, by name", () => {
    expect(problemsOf({ hotSpare: { standbys: -1 } })[0]).toMatch(
      /^hotSpare\.standbys: got -1; must be an integer in \[0, 100,000\]/,
    );
    expect(problemsOf({ ft: { stepOverheadPercent: 1000 } })[0]).toMatch(
      /^ft\.stepOverheadPercent: got 1000; must be a number in \[0, 1,000\)/,
    );
    expect(problemsOf({ ft: { stepOverheadPercent: 5000 } })[0]).toMatch(/^ft\.stepOverheadPercent: /);
    expect(parseScenario({ ft: { stepOverheadPercent: 999.9 } }).ft.stepOverheadPercent).toBe(999.9);
    expect(problemsOf({ ft: { restrike: "loud" } })[0]).toMatch(
      /^ft\.restrike: got "loud"; must be one of "stall", "quiet"/,
    );
    expect(problemsOf({ inMemory: { persistEvery: 0 } })[0]).toMatch(/^inMemory\.persistEvery: /);
    expect(problemsOf({ hotSpare: { spares: 3 } })[0]).toMatch(/^hotSpare\.spares: unknown field/);
  });

  it("the version follows from the content: 3 only with a §4 setting", () => {
    expect(parseScenario({ policies: ["synchronous", "ftHsdp"] }).version).toBe(1);
    expect(parseScenario({ spares: { pool: "limited" } }).version).toBe(2);
    expect(parseScenario({ policies: ["ftHsdp", "synchronous"] }).version).toBe(3);
    expect(parseScenario({ policies: ["inMemory"] }).version).toBe(3);
    expect(parseScenario({ inMemory: { writeSeconds: 5 } }).version).toBe(3);
    expect(parseScenario({ ft: { restrike: "quiet" } }).version).toBe(3);
    expect(parseScenario({ version: 1, hotSpare: { standbys: 2 } }).version).toBe(1);
  });

  it("a version-3 scenario round-trips through its share link; a v2 one's link is unchanged", () => {
    const s = parseScenario({
      policies: ["hotSpare", "ftHsdp", "inMemory"],
      ft: { stepOverheadPercent: 3, restrike: "quiet" },
      hotSpare: { standbys: 8 },
    });
    expect(decodeScenarioLink(encodeScenarioHash(s))).toEqual(s);
    const v2 = parseScenario({ spares: { pool: "limited", hosts: 3 } });
    expect(Object.keys(diffFromDefaults(v2))).toEqual(["spares"]);
    expect(decodeScenarioLink(encodeScenarioHash(v2))).toEqual(v2);
  });
});
