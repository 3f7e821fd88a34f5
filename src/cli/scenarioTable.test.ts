import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { scenarioTable, withScenarioTable } from "./scenarioTable.ts";

describe("the README's scenario table", () => {
  it("is exactly the one the validator implies (regenerate with `npm run -s docs:scenario -- --write`)", () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    expect(withScenarioTable(readme, scenarioTable())).toBe(readme);
  });

  it("--write replaces only what lies between the markers, and a README without them is refused", () => {
    const readme =
      "intro\n<!-- scenario-table:start old -->\n| stale |\n<!-- scenario-table:end -->\nafter\n";
    const written = withScenarioTable(readme, "| new |");
    expect(written.startsWith("intro\n<!-- scenario-table:start")).toBe(true);
    expect(written).toContain("-->\n| new |\n<!-- scenario-table:end -->\nafter\n");
    expect(written).not.toContain("stale");
    expect(() => withScenarioTable("no markers", "| new |")).toThrow(/markers/);
  });
});
