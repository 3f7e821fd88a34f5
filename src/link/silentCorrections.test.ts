/**
 * What a link or a scenario says about its input is true of it — a link cut
 * to its tag says it is cut, and a name's length is counted the way the check counts it.
 */
import { describe, expect, it } from "vitest";
import { parseScenario } from "../sim/scenario/index.ts";
import { decodeScenarioParam } from "./scenarioLink.ts";

describe("refusals say what is true of the input", () => {
  it("s=2 (cut to its tag) is cut, not a format this explorer cannot read", () => {
    expect(() => decodeScenarioParam("2")).toThrow(/s=2\) is cut: it holds only its format tag "2"/);
    expect(() => decodeScenarioParam("2")).not.toThrow(/reads formats 1 and 2/);
    expect(() => decodeScenarioParam("7")).toThrow(/format tag is "7"/);
  });

  it("counts a cause name in code points, as its check does: 41 emoji are 41 characters", () => {
    const causes = (name: string) => ({ failures: { causes: [{ name, share: 1, scope: "host" }] } });
    expect(() => parseScenario(causes("😀".repeat(40)))).not.toThrow();
    expect(() => parseScenario(causes("😀".repeat(41)))).toThrow(/\(41 characters\)/);
  });
});
