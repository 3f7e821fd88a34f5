/**
 * Architecture checks over the import graph.
 *
 * Test support (src/testing: fixtures, arbitraries, the independent reference model) exists for
 * tests and benchmarks only: production code that imported it would ship a second, unchecked
 * engine and test libraries into the app.
 *
 * Layers (README.md, "Layout"): imports point down only, so each folder can be read, tested and
 * changed knowing only the folders below it. Folders on one rank do not import each other (sim
 * and step are independent models; export and gpu share nothing). A new folder under src/ fails
 * the test until it is given a rank here.
 *
 * Circles: no file imports itself through others, not even for a type, so that any file can be
 * understood (and moved) with only what it imports.
 */

import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { circles, importEdges, isTestSupport, rankOf, srcFolder, upwardImports } from "./importGraph.ts";

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

  it("every src/ folder has a layer", () => {
    const folders = new Set(production.map((e) => srcFolder(e.from)));
    expect([...folders].filter((f) => rankOf(f) === undefined)).toEqual([]);
  });

  it("imports point down the layers only", () => {
    expect(upwardImports(production)).toEqual([]);
  });

  it("the layer check sees an upward import and an import between folders of one rank", () => {
    const tried = [
      { from: "src/sim/engine.ts", to: "src/ui/App.tsx", specifier: "../ui/App.tsx" },
      { from: "src/gpu/labBudget.ts", to: "src/link/labLink.ts", specifier: "../link/labLink.ts" },
      { from: "src/step/stepTimeline.ts", to: "src/sim/rng.ts", specifier: "../sim/rng.ts" },
      { from: "src/ui/App.tsx", to: "src/sim/engine.ts", specifier: "../sim/engine.ts" },
    ];
    expect(upwardImports(tried)).toEqual([
      "src/sim/engine.ts -> ../ui/App.tsx",
      "src/gpu/labBudget.ts -> ../link/labLink.ts",
      "src/step/stepTimeline.ts -> ../sim/rng.ts",
    ]);
  });

  it("no import circles, type-only imports included", () => {
    expect(circles(production)).toEqual([]);
  });

  it("the circle check sees a type-only circle", () => {
    const tried = [
      { from: "src/sim/types.ts", to: "src/sim/policies/index.ts", specifier: "./policies.ts" },
      { from: "src/sim/policies/index.ts", to: "src/sim/types.ts", specifier: "./types.ts" },
      { from: "src/sim/engine.ts", to: "src/sim/types.ts", specifier: "./types.ts" },
    ];
    expect(circles(tried)).toEqual([["src/sim/policies/index.ts", "src/sim/types.ts"]]);
  });
});
