/**
 * The preset models' parameters: the four lists printed from PyTorch 1.13 and Llama 3 shapes from
 * the transformer generator. Listed in presetCatalog.ts.
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

/** Each preset's list as one comparable text, built the first time a paste is compared. */
let fingerprints: Map<string, { count: number; text: string }> | null = null;

function fingerprint(params: readonly Param[]): string {
  return params.map((p) => `${p.name}|${p.shape.join("x")}|${p.dtype}`).join("\n");
}

/**
 * The preset whose parameter list this is (same names, shapes and dtypes, in order), or null: a
 * pasted resnet50.json is the ResNet-50 preset, and must give the same step with the same
 * settings, so it takes that preset's compute times.
 */
export function presetOfParams(params: readonly Param[]): string | null {
  fingerprints ??= new Map();
  for (const id of LOADERS.keys()) {
    let f = fingerprints.get(id);
    if (!f) {
      const own = presetParams(id);
      f = { count: own.length, text: fingerprint(own) };
      fingerprints.set(id, f);
    }
    if (f.count === params.length && f.text === fingerprint(params)) return id;
  }
  return null;
}
