import { describe, expect, it } from "vitest";
import { PRESET_CATALOG } from "./presetCatalog.ts";
import { presetParams } from "./presets.ts";
import { LLAMA3, transformerParams } from "./transformer.ts";

const count = (id: string) => presetParams(id).reduce((s, p) => s + p.numel, 0);

describe("transformer generator", () => {
  it("reproduces Llama 3's published parameter counts", () => {
    // 8,030,261,248 is the count Hugging Face reports for Meta-Llama-3-8B.
    expect(count("llama3-8b")).toBe(8_030_261_248);
    expect(count("llama3-70b") / 1e9).toBeCloseTo(70.55, 1);
    expect(count("llama3-405b") / 1e9).toBeCloseTo(405.85, 1);
  });

  it("uses grouped-query k/v projections and HF Llama's registration order", () => {
    const ps = transformerParams(LLAMA3["8B"]);
    expect(ps).toHaveLength(1 + 32 * 9 + 2);
    expect(ps[0]?.name).toBe("model.embed_tokens.weight");
    expect(ps[2]?.shape).toEqual([1024, 4096]); // k_proj: 8 kv heads × 128
    expect(ps.at(-1)?.name).toBe("lm_head.weight");
    expect(ps[0]?.dtype).toBe("bfloat16");
    expect(ps[0]?.bytes).toBe(128256 * 4096 * 2);
  });

  it("refuses shapes whose heads do not divide", () => {
    expect(() => transformerParams({ ...LLAMA3["8B"], kvHeads: 5 })).toThrow(/kv heads/);
  });

  it("has parameters for every catalogued preset", () => {
    for (const p of PRESET_CATALOG) expect(presetParams(p.id).length).toBeGreaterThan(0);
  });
});
