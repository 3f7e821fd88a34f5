import { describe, expect, it } from "vitest";
import { monteCarlo } from "../../sim/monteCarlo/monteCarlo.ts";
import { parseScenario } from "../../sim/scenario/index.ts";
import { badputPairs, sharedPolicies, shareText } from "./badputPairs.ts";

const SMALL = { cluster: { gpus: 4096, replicas: 8 }, training: { days: 3 }, seed: 11 };

describe("the comparison's badput side by side", () => {
  // A slower restart: the synchronous job's recovery share grows, FT-HSDP's is the replicas'.
  const a = monteCarlo(parseScenario(SMALL), 20);
  const b = monteCarlo(
    parseScenario({ ...SMALL, sync: { restartSeconds: 900 }, policies: ["synchronous", "ftHsdp", "diloco"] }),
    20,
  );

  it("pairs each category's mean of the two runs, for the strategies both ran", () => {
    expect(sharedPolicies(a, b)).toEqual(["synchronous", "ftHsdp"]);
    const rows = badputPairs(a, b);
    const recovery = rows.find((r) => r.category === "recovery");
    expect(recovery?.cells.synchronous).toEqual({
      base: a.synchronous?.badput.recovery.mean,
      current: b.synchronous?.badput.recovery.mean,
    });
    expect((recovery?.cells.synchronous?.current ?? 0) > (recovery?.cells.synchronous?.base ?? 1)).toBe(true);
    // DiLoCo ran in one only: no column, and its categories only where another strategy has them.
    expect(rows.every((r) => r.cells.diloco === undefined)).toBe(true);
    expect(rows.some((r) => r.category === "outerSync")).toBe(false);
    // Categories zero in both are left out.
    expect(rows.some((r) => r.category === "spareWait")).toBe(false);
  });

  it("says both shares and the difference in points", () => {
    expect(shareText(0.123, 0.101)).toBe("12.3% → 10.1% (−2.2 points)");
    expect(shareText(0.1, 0.15)).toBe("10.0% → 15.0% (+5.0 points)");
    expect(shareText(0.2, 0.2)).toBe("20.0% → 20.0% (±0.0 points)");
  });
});
