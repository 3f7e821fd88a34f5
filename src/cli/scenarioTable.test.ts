import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { scenarioTable } from "./scenarioTable.ts";

describe("the README's scenario table", () => {
  it("is the one the validator implies (regenerate with `npm run -s docs:scenario`)", () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    const between =
      readme.split("<!-- scenario-table:start")[1]?.split("<!-- scenario-table:end -->")[0] ?? "";
    expect(between).toContain(scenarioTable());
  });
});
