import { describe, expect, it } from "vitest";
import { unitAfter } from "./format.ts";

describe("unitAfter: a unit after its value", () => {
  it("is singular after exactly 1 where the unit is a plural word", () => {
    expect(`1 ${unitAfter(1, "steps")}`).toBe("1 step");
    expect(`1 ${unitAfter(1, "GPUs")}`).toBe("1 GPU");
    expect(`2 ${unitAfter(2, "steps")}`).toBe("2 steps");
    expect(`1.5 ${unitAfter(1.5, "days")}`).toBe("1.5 days");
  });
  it("leaves symbols as they are", () => {
    for (const u of ["s", "min", "h", "MiB", "%", "×", "per host-day"]) expect(unitAfter(1, u)).toBe(u);
  });
});
