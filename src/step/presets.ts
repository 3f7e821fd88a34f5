/**
 * The preset models' parameters: the four lists printed from PyTorch 1.13 (shared reference,
 * FACTS.md) and Llama 3 shapes from the transformer generator. Listed in presetCatalog.ts.
 */

import { type Param, validateModelList } from "./modelList.ts";
import bertLarge from "./models/bert_large_like.json";
import gpt2Medium from "./models/gpt2_medium_like.json";
import resnet50 from "./models/resnet50.json";
import vitB16 from "./models/vit_b_16.json";
import { LLAMA3, transformerParams } from "./transformer.ts";

// A Map: the id may come from a link, and an object literal would answer "toString".
const LOADERS: ReadonlyMap<string, () => Param[]> = new Map(
  Object.entries({
    resnet50: () => validateModelList(resnet50),
    vit_b_16: () => validateModelList(vitB16),
    bert_large_like: () => validateModelList(bertLarge),
    gpt2_medium_like: () => validateModelList(gpt2Medium),
    "llama3-8b": () => transformerParams(LLAMA3["8B"]),
    "llama3-70b": () => transformerParams(LLAMA3["70B"]),
    "llama3-405b": () => transformerParams(LLAMA3["405B"]),
  }),
);

export function presetParams(id: string): Param[] {
  const load = LOADERS.get(id);
  if (load === undefined) throw new Error(`unknown model preset ${id}`);
  return load();
}
