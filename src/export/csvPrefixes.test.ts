/**
 * The CSV's column prefixes are a public contract (spreadsheets and scripts read the columns by
 * name): `sync`, `ft_hsdp`, `in_memory` and `hot_spare` never change. This is the one place they
 * are typed by hand; everything else reads them from the registry.
 */
import { describe, expect, it } from "vitest";
import { monteCarlo } from "../sim/monteCarlo/monteCarlo.ts";
import { policyOf } from "../sim/policies/index.ts";
import { parseScenario } from "../sim/scenario/index.ts";
import { axisInfo } from "../sim/sweep/index.ts";
import { BADPUT_CATEGORIES } from "../sim/types.ts";
import { V3_POLICIES } from "../testing/scenario.arbitrary.ts";
import { sweepCsv } from "./csv.ts";

const CONTRACT = { synchronous: "sync", ftHsdp: "ft_hsdp", inMemory: "in_memory", hotSpare: "hot_spare" };

describe("the CSV's column prefixes (a public contract)", () => {
  it("are the registry's, one per built-in policy, unchanged", () => {
    expect(Object.fromEntries(V3_POLICIES.map((k) => [k, policyOf(k).csvPrefix]))).toEqual(CONTRACT);
  });

  it("name every selected policy's columns in a sweep's CSV", () => {
    const s = parseScenario({
      policies: [...V3_POLICIES],
      cluster: { gpus: 64, gpusPerHost: 8, replicas: 4 },
      training: { days: 1 },
    });
    const header =
      sweepCsv(axisInfo("gpus"), [{ x: 64, mc: monteCarlo(s, 2) }])
        .split("\r\n")[0]
        ?.split(",") ?? [];
    for (const prefix of Object.values(CONTRACT)) {
      for (const stat of ["mean", "p5", "p95"]) expect(header).toContain(`${prefix}_ettr_${stat}`);
      for (const b of BADPUT_CATEGORIES) expect(header).toContain(`${prefix}_badput_${b}_mean`);
    }
  });
});
