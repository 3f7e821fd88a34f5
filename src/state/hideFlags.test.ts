import { describe, expect, it } from "vitest";
import { controlId, hideParam, hideStyle, parseHideParam } from "./hideFlags.ts";

describe("classroom links' hide flags", () => {
  it("round-trips a list of control ids", () => {
    const ids = ["cluster.gpus", "failures.arrivals", "presets"];
    expect(parseHideParam(hideParam(ids))).toEqual(ids);
    expect(parseHideParam(undefined)).toEqual([]);
    expect(parseHideParam("a,a,b")).toEqual(["a", "b"]);
  });

  it("refuses, by name, ids that could escape the CSS selector they end up in", () => {
    expect(() => parseHideParam('ok,"]{x}%20,a b,.dot,%22')).toThrow(
      /hide= names "\\"]\{x\} ", "a b", ".dot" and 1 more, not control ids/,
    );
    expect(() => parseHideParam("a%E0%A4%A")).toThrow(/broken %-escape/);
    expect(() => parseHideParam(Array.from({ length: 65 }, (_, i) => `c${i}`).join(","))).toThrow(
      /at most 64/,
    );
    expect(hideStyle(['x"]', "y"])).toBe('[data-control="y"] { display: none !important; }');
    expect(hideStyle([])).toBe("");
  });
});

describe("control ids from labels", () => {
  it("are safe ids that hide flags accept", () => {
    expect(controlId("lab", "Size / device")).toBe("lab.size-device");
    expect(controlId("step", "Backward (ms)")).toBe("step.backward-ms");
    expect(parseHideParam(controlId("lab", "Kill at step"))).toEqual(["lab.kill-at-step"]);
  });
});
