/**
 * What the view needs to list the model presets and the step's defaults, without their parameter
 * data (that lives in presets.ts, loaded where the model is computed).
 */
import { linkPreset } from "./collectiveCost.ts";
import { NO_SLOW_RANK } from "./slowRank.ts";
import { STEP_RANGES } from "./stepRanges.ts";
import type { ComputeConfig, StepConfig } from "./stepTimeline.ts";

export interface PresetInfo {
  id: string;
  label: string;
  source: string;
  compute: ComputeConfig;
}

/**
 * LLM forward ≈ 2·P·tokens FLOPs at an effective 400 TFLOP/s per H100 with 8,192 tokens per GPU;
 * backward twice that (the usual 1:2 split). The CNN/encoder figures are plausible per-GPU step
 * times, not measurements; the view lets a person change them.
 */
function llmForwardMs(elements: number): number {
  return ((2 * elements * 8192) / 400e12) * 1e3;
}

function llmCompute(paramCount: number): ComputeConfig {
  const forwardMs = Math.round(llmForwardMs(paramCount));
  return { forwardMs, backwardMs: 2 * forwardMs, optimizerMs: Math.max(2, Math.round(forwardMs / 50)) };
}

/**
 * A pasted model's own compute times: the same rule applied to its element count (docs/model.md §2:
 * cost proportional to elements by default), kept to the microsecond rather than whole ms so a tiny
 * model gets tiny times, and bounded by what the step link accepts (10⁶ ms).
 */
export function computeForElements(elements: number): ComputeConfig {
  const us = (v: number) => Math.min(STEP_RANGES.computeMs.max, Math.round(v * 1e3) / 1e3);
  const forwardMs = llmForwardMs(elements);
  return { forwardMs: us(forwardMs), backwardMs: us(2 * forwardMs), optimizerMs: us(forwardMs / 50) };
}

const TORCH_LISTS = "named_parameters() printed with PyTorch 1.13 / torchvision 0.14";
const GENERATED = "generated from Llama 3's shape (bf16, GQA with 8 kv heads)";

export const PRESET_CATALOG: readonly PresetInfo[] = [
  {
    id: "resnet50",
    label: "ResNet-50",
    source: TORCH_LISTS,
    compute: { forwardMs: 30, backwardMs: 60, optimizerMs: 2 },
  },
  {
    id: "vit_b_16",
    label: "ViT-B/16",
    source: TORCH_LISTS,
    compute: { forwardMs: 45, backwardMs: 90, optimizerMs: 3 },
  },
  {
    id: "bert_large_like",
    label: "BERT-large-like",
    source: TORCH_LISTS,
    compute: { forwardMs: 110, backwardMs: 220, optimizerMs: 8 },
  },
  {
    id: "gpt2_medium_like",
    label: "GPT-2-medium-like",
    source: TORCH_LISTS,
    compute: { forwardMs: 120, backwardMs: 240, optimizerMs: 8 },
  },
  { id: "llama3-8b", label: "Llama 3 8B", source: GENERATED, compute: llmCompute(8.03e9) },
  { id: "llama3-70b", label: "Llama 3 70B", source: GENERATED, compute: llmCompute(70.6e9) },
  { id: "llama3-405b", label: "Llama 3 405B", source: GENERATED, compute: llmCompute(405.9e9) },
];

export function presetInfo(id: string): PresetInfo {
  const p = PRESET_CATALOG.find((m) => m.id === id);
  if (p === undefined) throw new Error(`unknown model preset ${id}`);
  return p;
}

/** DDP across 4 nodes of 8 GPUs on 100 Gb/s Ethernet: where the bucket size visibly matters. */
export const DEFAULT_STEP_CONFIG: StepConfig = {
  capMb: 25,
  firstBucketMb: 1,
  compute: PRESET_CATALOG[0]!.compute,
  parallel: {
    mode: "ddp",
    gpusPerReplica: 8,
    replicas: 4,
    missingReplica: false,
    algorithm: "ring",
    intraLink: linkPreset("nvlink-h100"),
    interLink: linkPreset("eth-100"),
  },
  slowRank: NO_SLOW_RANK,
};
