import { describe, expect, it } from "vitest";
import { ModelListError, parseModelList } from "./modelList.ts";

function errorOf(text: string): ModelListError {
  try {
    parseModelList(text);
  } catch (e) {
    if (e instanceof ModelListError) return e;
    throw e;
  }
  throw new Error("expected a ModelListError");
}

describe("parseModelList", () => {
  it("reads what named_parameters() prints, with torch.-prefixed or bare dtypes", () => {
    const ps = parseModelList(
      '[{"name": "w", "shape": [3, 4], "dtype": "torch.float32"}, {"name": "b", "shape": [4], "dtype": "bfloat16"}]',
    );
    expect(ps.map((p) => [p.name, p.dtype, p.numel, p.bytes])).toEqual([
      ["w", "float32", 12, 48],
      ["b", "bfloat16", 4, 8],
    ]);
  });

  it("accepts the {parameters: [...]} wrapper and Python's single-quoted print", () => {
    expect(
      parseModelList('{"model": "m", "parameters": [{"name": "x", "shape": [], "dtype": "float64"}]}'),
    ).toEqual([{ name: "x", shape: [], dtype: "float64", numel: 1, bytes: 8 }]);
    expect(parseModelList("[{'name': 'x', 'shape': [2], 'dtype': 'torch.int8'}]")[0]?.bytes).toBe(2);
  });

  it("names the entry of a JSON syntax error", () => {
    const e = errorOf(
      '[\n{"name": "a", "shape": [1], "dtype": "float32"},\n{"name": "b", "shape": [1] "dtype": "float32"}\n]',
    );
    expect(e.entry).toBe(1);
    expect(e.message).toMatch(/^Malformed JSON, entry 1 \("b"\)/);
  });

  it("names the entry with a missing shape", () => {
    const e = errorOf(
      '[{"name": "a", "shape": [1], "dtype": "float32"}, {"name": "fc.bias", "dtype": "float32"}]',
    );
    expect(e.entry).toBe(1);
    expect(e.message).toBe('entry 1 ("fc.bias"): "shape" is missing.');
  });

  it("names the entry with an unknown dtype", () => {
    const e = errorOf('[{"name": "a", "shape": [1], "dtype": "torch.float33"}]');
    expect(e.entry).toBe(0);
    expect(e.message).toMatch(/^entry 0 \("a"\): unknown dtype "torch.float33"/);
  });

  it("rejects bad shapes and missing names against their entry", () => {
    expect(errorOf('[{"name": "a", "shape": [2, -1], "dtype": "float32"}]').message).toMatch(
      /entry 0 \("a"\): "shape"/,
    );
    expect(errorOf('[{"name": "a", "shape": [1.5], "dtype": "float32"}]').entry).toBe(0);
    expect(errorOf('[{"shape": [1], "dtype": "float32"}]').message).toMatch(/^entry 0: "name"/);
  });

  it("rejects an empty list, empty text and a non-list", () => {
    expect(errorOf("[]").message).toMatch(/empty/);
    expect(errorOf("[]").entry).toBeNull();
    expect(errorOf("  ").message).toMatch(/Nothing pasted/);
    expect(errorOf('{"name": "a"}').message).toMatch(/Expected a JSON list/);
  });
});
