import { describe, expect, it } from "vitest";
import { ModelListError, parseModelList } from "./modelList.ts";

describe("the named_parameters() printout", () => {
  it("reads `print(n, p.shape)` lines as float32 parameters, in order", () => {
    const params = parseModelList(
      "layer1.weight torch.Size([1024, 1024])\nlayer1.bias torch.Size([1024])\n\nscale torch.Size([])\n",
    );
    expect(params.map((p) => [p.name, p.shape, p.dtype, p.bytes])).toEqual([
      ["layer1.weight", [1024, 1024], "float32", 1024 * 1024 * 4],
      ["layer1.bias", [1024], "float32", 4096],
      ["scale", [], "float32", 4],
    ]);
  });

  it("takes a dtype printed after the shape, and Windows line ends", () => {
    const params = parseModelList(
      "w torch.Size([8, 2]) torch.bfloat16\r\nb torch.Size([8]) torch.float32\r\n",
    );
    expect(params.map((p) => [p.name, p.dtype, p.bytes])).toEqual([
      ["w", "bfloat16", 32],
      ["b", "float32", 32],
    ]);
  });

  it("refuses a stray line by its number, and a shape that is not integers", () => {
    expect(() => parseModelList("a torch.Size([2])\nb is 3 floats\n")).toThrow(
      /^In the printout, line 2 is not "name torch.Size\(\[…\]\)": "b is 3 floats"\.$/,
    );
    expect(() => parseModelList("a torch.Size([2, x])")).toThrow(ModelListError);
    expect(() => parseModelList("a torch.Size([2, x])")).toThrow(/line 1: torch.Size\(\[2, x\]\) must list/);
  });

  it("keeps the list's own bounds (a shape too large is refused by name)", () => {
    expect(() => parseModelList("huge torch.Size([1000000000, 1000000000])")).toThrow(/entry 0 \("huge"\)/);
  });
});
