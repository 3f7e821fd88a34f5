import { describe, expect, it } from "vitest";
import { Rng } from "../sim/rng.ts";
import {
  MAX_PARAM_BYTES,
  MAX_PARAMS,
  MAX_PASTE_CHARS,
  ModelListError,
  parseModelList,
  validateModelList,
} from "./modelList.ts";
import resnet50 from "./models/resnet50.json";

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

  it("names the entry, line and column of a JSON syntax error", () => {
    const e = errorOf(
      '[\n{"name": "a", "shape": [1], "dtype": "float32"},\n{"name": "b", "shape": [1] "dtype": "float32"}\n]',
    );
    expect(e.entry).toBe(1);
    expect(e.message).toBe(
      `Malformed JSON at line 3, column 28, entry 1 ("b"): expected ',' or '}', found "\\"".`,
    );
    // V8's message for an unexpected token carries no position at all: the entry is still found.
    expect(
      errorOf('[{"name": "a", "shape": [1], "dtype": "float32"}, {"name": "b", "shape": x}]').entry,
    ).toBe(1);
    // A paste cut short: the unfinished entry.
    expect(errorOf('[{"name": "a", "shape": [1], "dtype": "float32"}, {"name": "b", "sha').message).toMatch(
      /^Malformed JSON at line 1, column 69, entry 1 \("b"\): a string is not closed/,
    );
  });

  it("names the entry of every malformed paste: 1,200 pastes of ResNet-50's list, broken at a random structural character of a random entry", () => {
    const params = resnet50.parameters;
    const layouts = [
      JSON.stringify(params), // compact
      `[${params.map((p) => JSON.stringify(p).replaceAll(",", ", ").replaceAll(":", ": ")).join(", ")}]`, // Python's json.dumps
      JSON.stringify({ parameters: params }, null, 2), // the shared files' wrapper, indented
    ];
    const rng = new Rng(12);
    let malformed = 0;
    const unnamed: string[] = [];
    for (let c = 0; c < 1200; c++) {
      const layout = layouts[c % layouts.length]!;
      const k = rng.below(params.length);
      const name = params[k]!.name;
      // The entry's text: from its "{" to its "}" (names are unique and hold no braces).
      const nameAt = layout.indexOf(`"${name}"`);
      const start = layout.lastIndexOf("{", nameAt);
      const end = layout.indexOf("}", start);
      const structural = [...layout.slice(start, end + 1)]
        .map((ch, i) => (/[{}[\],:"]/.test(ch) ? start + i : -1))
        .filter((i) => i >= 0);
      const at = structural[rng.below(structural.length)]!;
      const kind = rng.below(4);
      const broken =
        kind === 0
          ? layout.slice(0, at) + layout.slice(at + 1) // a character lost
          : kind === 1
            ? `${layout.slice(0, at + 1)}x${layout.slice(at + 1)}` // a stray character
            : kind === 2
              ? layout.slice(0, at) + "=;'"[rng.below(3)] + layout.slice(at + 1) // a wrong character
              : layout.slice(0, at); // cut short
      let e: unknown = null;
      try {
        parseModelList(broken);
      } catch (err) {
        e = err;
      }
      if (e === null) continue; // still valid (e.g. a character lost from a name)
      expect(e).toBeInstanceOf(ModelListError);
      const m = e as ModelListError;
      if (m.message.startsWith("Malformed JSON")) malformed++;
      if (m.entry !== k || !m.message.includes(`entry ${k}`)) unnamed.push(`${m.entry} ≠ ${k}: ${m.message}`);
    }
    expect(malformed).toBeGreaterThan(1000);
    expect(unnamed).toEqual([]);
  });

  it("accepts a paste or file that starts with a UTF-8 byte-order mark", () => {
    expect(parseModelList('\uFEFF[{"name": "w", "shape": [2], "dtype": "float32"}]')[0]?.bytes).toBe(8);
  });

  it("refuses shapes whose byte size overflows, naming the entry and the bound", () => {
    const e = errorOf('[{"name": "w", "shape": [1e308, 1e308], "dtype": "float32"}]');
    expect(e.entry).toBe(0);
    expect(e.message).toMatch(
      /^entry 0 \("w"\): "shape" \[1e\+308, 1e\+308\] makes more bytes than a number can hold of gradients; one parameter may have at most 1 PiB\.$/,
    );
    const side = Math.ceil(Math.sqrt(MAX_PARAM_BYTES / 4)) + 1;
    expect(
      errorOf(
        `[{"name": "a", "shape": [1], "dtype": "float32"}, {"name": "big", "shape": [${side}, ${side}], "dtype": "float32"}]`,
      ).entry,
    ).toBe(1);
    // The largest allowed parameter is accepted, with exact byte counts.
    expect(
      parseModelList(`[{"name": "w", "shape": [${2 ** 25}, ${2 ** 25}], "dtype": "int8"}]`)[0]?.bytes,
    ).toBe(MAX_PARAM_BYTES);
  });

  it("dtypes named like Object.prototype members are unknown dtypes, not functions", () => {
    for (const dtype of ["toString", "__proto__", "constructor", "hasOwnProperty", "torch.valueOf"]) {
      const e = errorOf(`[{"name": "w", "shape": [2], "dtype": "${dtype}"}]`);
      expect(e.message).toMatch(/^entry 0 \("w"\): unknown dtype/);
    }
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

  it("takes a list of exactly MAX_PARAMS entries and refuses one more, or a paste past MAX_PASTE_CHARS", () => {
    const entry = { name: "w", shape: [2, 3], dtype: "torch.float32" };
    const list = Array.from({ length: MAX_PARAMS }, () => entry);
    const params = validateModelList(list);
    expect(params).toHaveLength(MAX_PARAMS);
    expect(params.reduce((s, p) => s + p.bytes, 0)).toBe(MAX_PARAMS * 24);
    list.push(entry);
    expect(() => validateModelList(list)).toThrow(
      "The list has 200,001 parameters; the explorer takes at most 200,000.",
    );
    const long = `[${JSON.stringify(entry)}]${" ".repeat(MAX_PASTE_CHARS)}`;
    expect(errorOf(long).message).toMatch(/at most 33,554,432 \(32 MiB\)/);
    expect(parseModelList(long.slice(0, MAX_PASTE_CHARS))).toHaveLength(1);
  });

  it("rejects an empty list, empty text and a non-list", () => {
    expect(errorOf("[]").message).toMatch(/empty/);
    expect(errorOf("[]").entry).toBeNull();
    expect(errorOf("  ").message).toMatch(/Nothing pasted/);
    expect(errorOf('{"name": "a"}').message).toMatch(/Expected a JSON list/);
  });
});

describe("duplicate keys", () => {
  it("an entry that gives a key twice is refused by name, not read as its last value", () => {
    const paste =
      '[{"name":"w","shape":[4],"dtype":"float32"},{"name":"b","shape":[4],"shape":[8],"dtype":"float32"}]';
    expect(() => parseModelList(paste)).toThrow(/entry 1.*"shape" is given twice in \[1\]/);
    try {
      parseModelList(paste);
    } catch (e) {
      expect((e as ModelListError).entry).toBe(1);
    }
    expect(() => parseModelList("{'parameters': [], 'parameters': []}")).toThrow(
      /"parameters" is given twice/,
    );
  });
});
