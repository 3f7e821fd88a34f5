/**
 * Every `slow` field is a sweep axis and a tornado row, from the field table: on the
 * Greyhound preset (slow episodes on), each field's row moves that field only.
 */
import { describe, expect, it } from "vitest";
import { presetById } from "../presets.ts";
import { FIELD_SPECS, parseScenario } from "../scenario/index.ts";
import { axisApplies, axisInfo, sweepAxesFor } from "./index.ts";
import { planTornado } from "./tornado.ts";

const preset = presetById("slow-greyhound");
if (!preset) throw new Error("no Greyhound preset");
const greyhound = parseScenario(preset.scenario);
const slowKeys = Object.keys(FIELD_SPECS.slow);

describe("slow episodes as axes", () => {
  it("each slow field of the table is an axis labelled from its spec, applying with episodes on", () => {
    const ids = sweepAxesFor(greyhound).map((a) => a.id);
    for (const key of slowKeys) {
      const id = `slow.${key}` as const;
      expect(ids, id).toContain(id);
      const spec = FIELD_SPECS.slow[key as keyof typeof FIELD_SPECS.slow];
      expect(axisInfo(id).label).toBe(spec.label);
      expect(axisApplies(greyhound, id), id).toBe(true);
    }
  });

  it("each is a tornado row of the preset whose ends move that field alone", () => {
    const plan = planTornado(greyhound, 0.5);
    for (const key of slowKeys) {
      const row = plan.rows.find((r) => r.axis === `slow.${key}`);
      expect(row, key).toBeDefined();
      for (const e of row?.ends ?? []) {
        expect(e.scenario.slow[key as keyof typeof greyhound.slow]).toBe(e.x);
        expect({ ...e.scenario, slow: null, version: null }).toEqual({
          ...greyhound,
          slow: null,
          version: null,
        });
      }
    }
  });
});
