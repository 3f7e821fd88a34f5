/**
 * Every scenario the validator accepts yields finite metrics: inputs over the whole accepted
 * range of every field, edges included (minimum, smallest meaningful value, maximum, subnormal
 * rates), at a bounded cost per case. A scenario that is refused must be refused by name.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { acceptedRangeInput } from "../testing/scenarioInput.arbitrary.ts";
import { runScenario } from "./engine.ts";
import { parseScenario, ScenarioError } from "./scenario/index.ts";
import type { PolicyMetrics } from "./types.ts";

function nonFinite(m: PolicyMetrics): string[] {
  return Object.entries(m).flatMap(([k, v]) => {
    const values = ArrayBuffer.isView(v) ? Array.from(v as Float64Array) : [v];
    return values.every((x) => typeof x !== "number" || Number.isFinite(x))
      ? []
      : [`${k}: ${values.join(", ")}`];
  });
}

describe("every accepted scenario yields finite metrics", () => {
  it("over the whole accepted range of every field, edges included", { timeout: 120_000 }, () => {
    let accepted = 0;
    fc.assert(
      fc.property(acceptedRangeInput(5000), (input) => {
        let s: ReturnType<typeof parseScenario>;
        try {
          s = parseScenario(input);
        } catch (e) {
          expect(e).toBeInstanceOf(ScenarioError);
          return;
        }
        accepted++;
        const run = runScenario(s);
        for (const m of [run.synchronous, run.ftHsdp]) {
          expect(nonFinite(m!), JSON.stringify(input)).toEqual([]);
          expect(m!.ettr).toBeGreaterThanOrEqual(0);
          expect(m!.ettr).toBeLessThanOrEqual(1 + 1e-12);
        }
      }),
      { numRuns: 300, seed: 20261201 },
    );
    expect(accepted).toBeGreaterThan(200);
  });
});
