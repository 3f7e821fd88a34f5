import { describe, expect, it } from "vitest";
import { PRESET_CATALOG } from "./presetCatalog.ts";
import { presetParams } from "./presets.ts";

describe("presetParams", () => {
  it("loads every catalogued preset", () => {
    for (const { id } of PRESET_CATALOG) expect(presetParams(id).length).toBeGreaterThan(0);
  });

  it("refuses ids that name Object.prototype members instead of calling them", () => {
    for (const id of ["toString", "__proto__", "constructor", "valueOf"]) {
      expect(() => presetParams(id)).toThrow(`unknown model preset ${id}`);
    }
  });
});
