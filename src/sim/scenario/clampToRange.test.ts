/**
 * clampToRange is the table's own range, applied: what the log fit writes for a figure out of
 * range. For every numeric field of FIELD_SPECS (record members included), the value it gives is
 * one the validator's check accepts, and an accepted value is kept as it is.
 */
import { describe, expect, it } from "vitest";
import { clampToRange, FIELD_SPECS, GROUPS, inAllowedRange, type NumberSpec } from "./index.ts";

type Spec = { kind: string; fields?: Record<string, { kind: string }> };

function numberSpecs(): [string, NumberSpec][] {
  const out: [string, NumberSpec][] = [];
  const add = (name: string, spec: Spec) => {
    if (spec.kind === "number" || spec.kind === "int") out.push([name, spec as NumberSpec]);
    for (const [k, member] of Object.entries(spec.fields ?? {})) add(`${name}.${k}`, member);
  };
  for (const g of GROUPS)
    for (const [k, spec] of Object.entries(FIELD_SPECS[g] as Record<string, Spec>)) add(`${g}.${k}`, spec);
  return out;
}

describe("clampToRange", () => {
  const specs = numberSpecs();

  it("covers the table's numeric fields, the fit's among them", () => {
    const names = specs.map(([n]) => n);
    expect(names).toEqual(
      expect.arrayContaining(["failures.perHostDay", "failures.badHosts.factor", "spares.repairHours"]),
    );
  });

  it("gives an allowed value for any finite figure, and keeps an allowed one", () => {
    for (const [name, spec] of specs) {
      const { min, max } = spec;
      const tries = [
        -1e308,
        min - 1,
        min,
        min + 1e-320,
        (spec.smallest ?? min) / 2,
        max,
        max + 1,
        1e308,
        (min + max) / 2,
      ];
      for (const x of tries) {
        const y = clampToRange(spec, x);
        expect(inAllowedRange(spec, y), `${name}: ${x} → ${y}`).toBe(true);
        if (spec.kind === "int" && !Number.isInteger(y)) throw new Error(`${name}: ${y} is not an integer`);
        if (inAllowedRange(spec, x) && (spec.kind !== "int" || Number.isInteger(x))) expect(y, name).toBe(x);
      }
    }
  });

  it("takes a repair time of zero up to the smallest the validator allows", () => {
    const spec = FIELD_SPECS.spares.repairHours as NumberSpec;
    expect(clampToRange(spec, 0)).toBe(spec.smallest);
    expect(inAllowedRange(spec, clampToRange(spec, 1e-9))).toBe(true);
  });
});
