import { describe, expect, it } from "vitest";
import { claimHash } from "../link/claimLink.ts";
import { readHash } from "../link/hashParams.ts";
import { decodeScenarioLink } from "../link/scenarioLink.ts";
import { CLAIMS } from "../sim/papers/claims.ts";
import { recordedRows } from "../sim/papers/recorded.ts";
import { claimScenario } from "../sim/papers/rows.ts";
import { papersCommand } from "./papers.ts";

describe("npm run papers", () => {
  it("prints, as JSON, every row the Papers view shows, with the same values and verdicts", () => {
    const { code, stdout } = papersCommand(["--json"]);
    expect(code).toBe(0);
    const rows = (
      JSON.parse(stdout) as { rows: { id: string; model: unknown; verdict: unknown; link: string }[] }
    ).rows;
    const shown = recordedRows();
    expect(rows.map((r) => r.id)).toEqual(shown.map((r) => r.claim.id));
    rows.forEach((r, i) => {
      expect(r.model).toEqual(shown[i]!.model);
      expect(r.verdict).toEqual(shown[i]!.verdict);
    });
  }, 60_000);

  it("refuses an unknown option by name with status 2, and answers --help", () => {
    const bad = papersCommand(["--seeds", "5"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown option --seeds/);
    expect(papersCommand(["--help"]).stdout).toMatch(/^usage: npm run papers/);
  });
});

describe("a claim's link", () => {
  it("opens the Cluster view on the claim's scenario, capped at the row's runs at the finest precision", () => {
    for (const c of CLAIMS) {
      const hash = claimHash(claimScenario(c), c.runs);
      const params = readHash(hash);
      expect(params.get("v")).toBe("cluster");
      expect(params.get("mcp")).toBe("0.01");
      expect(params.get("mcn") ?? "2000").toBe(String(c.runs));
      expect(decodeScenarioLink(hash)).toEqual(claimScenario(c));
    }
  });
});
