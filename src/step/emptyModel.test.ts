import { describe, expect, it } from "vitest";
import { ModelListError, parseModelList } from "./modelList.ts";

describe("a model whose parameters are all empty", () => {
  it("is refused by name, not shown as NaN %", () => {
    const empty = JSON.stringify([
      { name: "a", shape: [0], dtype: "torch.float32" },
      { name: "b", shape: [4, 0], dtype: "torch.bfloat16" },
    ]);
    expect(() => parseModelList(empty)).toThrow(ModelListError);
    expect(() => parseModelList(empty)).toThrow(/Every parameter of the list is empty .*\[0\]/);
    // One empty parameter among others is a model.
    const some = JSON.stringify([
      { name: "a", shape: [0], dtype: "torch.float32" },
      { name: "b", shape: [4], dtype: "torch.float32" },
    ]);
    expect(parseModelList(some)).toHaveLength(2);
  });
});
