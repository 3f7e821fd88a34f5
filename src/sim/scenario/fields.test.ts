import { describe, expect, it } from "vitest";
import { fieldValue, memberField, numberField, stringField, withFieldValue } from "./fields.ts";
import { DEFAULT_SCENARIO, FIELD_SPECS, GROUPS } from "./index.ts";

describe("a field by group and key", () => {
  it("reads every field of the table as the scenario holds it, and nothing else", () => {
    for (const g of GROUPS)
      for (const k of Object.keys(FIELD_SPECS[g]))
        expect(fieldValue(DEFAULT_SCENARIO, g, k), `${g}.${k}`).toBe(
          (DEFAULT_SCENARIO[g] as Record<string, unknown>)[k],
        );
    expect(fieldValue(DEFAULT_SCENARIO, "cluster", "toString")).toBeUndefined();
    expect(fieldValue(DEFAULT_SCENARIO, "cluster", "nope")).toBeUndefined();
  });

  it("narrows by kind: a number, a string, a record's member", () => {
    expect(numberField(DEFAULT_SCENARIO, "cluster", "gpus")).toBe(DEFAULT_SCENARIO.cluster.gpus);
    expect(numberField(DEFAULT_SCENARIO, "cluster", "placement")).toBeUndefined();
    expect(stringField(DEFAULT_SCENARIO, "cluster", "placement")).toBe(DEFAULT_SCENARIO.cluster.placement);
    expect(stringField(DEFAULT_SCENARIO, "cluster", "gpus")).toBeUndefined();
    expect(memberField(DEFAULT_SCENARIO, "failures", "badHosts", "factor")).toBe(
      DEFAULT_SCENARIO.failures.badHosts.factor,
    );
    expect(memberField(DEFAULT_SCENARIO, "failures", "badHosts", "nope")).toBeUndefined();
    expect(memberField(DEFAULT_SCENARIO, "cluster", "gpus", "share")).toBeUndefined();
  });

  it("writes one field and shares the rest", () => {
    const s = withFieldValue(DEFAULT_SCENARIO, "sync", "restartSeconds", 7);
    expect(s.sync.restartSeconds).toBe(7);
    expect(s.sync.checkpointMinutes).toBe(DEFAULT_SCENARIO.sync.checkpointMinutes);
    expect(s.cluster).toBe(DEFAULT_SCENARIO.cluster);
    expect(DEFAULT_SCENARIO.sync.restartSeconds).not.toBe(7);
  });
});
