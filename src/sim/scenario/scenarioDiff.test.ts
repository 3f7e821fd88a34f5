import { describe, expect, it } from "vitest";
import { DEFAULT_SCENARIO, parseScenario } from "./index.ts";
import { scenarioDiff } from "./scenarioDiff.ts";

describe("scenarioDiff", () => {
  it("finds nothing between a scenario and itself, or its parsed copy", () => {
    expect(scenarioDiff(DEFAULT_SCENARIO, DEFAULT_SCENARIO)).toEqual([]);
    expect(scenarioDiff(DEFAULT_SCENARIO, parseScenario({}))).toEqual([]);
  });

  it("lists each differing field by the table's label and unit, in the table's order", () => {
    const b = parseScenario({ seed: 7, cluster: { gpus: 49_152 }, sync: { restartSeconds: 600 } });
    expect(scenarioDiff(DEFAULT_SCENARIO, b)).toEqual([
      { path: "seed", label: "Seed", from: "1", to: "7" },
      { path: "cluster.gpus", label: "GPUs", from: "98,304", to: "49,152" },
      expect.objectContaining({ path: "sync.restartSeconds", unit: "s", from: "540", to: "600" }),
    ]);
  });

  it("writes an enum by its knob's option label", () => {
    const b = parseScenario({ cluster: { placement: "striped", hostsPerRack: 4 } });
    const d = scenarioDiff(DEFAULT_SCENARIO, b).find((x) => x.path === "cluster.placement");
    expect(d).toMatchObject({ label: "Placement", from: "Packed", to: "Striped" });
  });

  it("includes the strategies, the name and a record's members one by one", () => {
    const b = parseScenario({
      name: "other",
      policies: ["synchronous"],
      failures: { badHosts: { share: 0.1, factor: 5 } },
    });
    const paths = scenarioDiff(DEFAULT_SCENARIO, b).map((d) => d.path);
    expect(paths).toEqual(["name", "policies", "failures.badHosts.share", "failures.badHosts.factor"]);
    expect(scenarioDiff(DEFAULT_SCENARIO, b)[1]).toMatchObject({ to: "synchronous" });
  });

  it("writes a cause mix out whole, in both directions", () => {
    const b = parseScenario({
      failures: { causes: [{ name: "GPU", share: 3, scope: "host", hang: true }] },
    });
    const d = scenarioDiff(DEFAULT_SCENARIO, b);
    expect(d).toEqual([
      expect.objectContaining({
        path: "failures.causes",
        label: "Cause mix",
        from: "none",
        to: "GPU (share 3, host, hangs, new host)",
      }),
    ]);
    expect(scenarioDiff(b, DEFAULT_SCENARIO)[0]).toMatchObject({ from: d[0]!.to, to: "none" });
  });
});
