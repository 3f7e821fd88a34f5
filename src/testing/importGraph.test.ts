/**
 * Architecture checks over the import graph. Test support (src/testing, fixtures, arbitraries,
 * the independent reference model) exists for tests and benchmarks only: production code that
 * imported it would ship a second, unchecked engine and test libraries into the app.
 */

import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { importEdges, isTestSupport } from "./importGraph.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const edges = importEdges(ROOT, ["src"]);
const production = edges.filter((e) => !isTestSupport(e.from));

describe("import graph", () => {
  it("reads the graph (a sanity floor, so an empty walk cannot pass the checks below)", () => {
    expect(production.length).toBeGreaterThan(500);
    expect(production).toContainEqual(
      expect.objectContaining({ from: "src/state/simClient.ts", to: "src/worker/sim.worker.ts" }),
    );
  });

  it("production code never imports test support or test libraries", () => {
    const bad = production
      .filter(
        (e) =>
          e.to.startsWith("src/testing/") || /\.test\.tsx?$/.test(e.to) || /^(vitest|fast-check)/.test(e.to),
      )
      .map((e) => `${e.from} -> ${e.specifier}`);
    expect(bad).toEqual([]);
  });
});
