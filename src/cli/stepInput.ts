/**
 * What `npm run step` steps: the model (a file, or a One step share link's preset or pasted list)
 * and the settings (the link's, then the flags), with the compute times said with where they come
 * from. The page's rule for a model's times holds here too: a preset's list takes the preset's
 * figures, any other list times estimated from its size (presetCatalog.ts), unless the link or a
 * flag sets them.
 */
import { basename } from "node:path";
import type { StepSettings } from "../link/stepLink.ts";
import { linkPreset } from "../step/collectiveCost.ts";
import { type Param, parseModelList } from "../step/modelList.ts";
import { computeForElements, presetInfo } from "../step/presetCatalog.ts";
import { presetOfParams, presetParams } from "../step/presets.ts";
import type { SlowRank } from "../step/slowRank.ts";
import type { ComputeConfig, StepConfig } from "../step/stepTimeline.ts";

/** Settings given by flags (absent: the link's, or the defaults). */
export interface StepFlags {
  capMb?: number;
  firstBucketMb?: number;
  slowRank?: SlowRank;
  nodes?: number;
  gpusPerNode?: number;
  /** The ring's link: α in seconds, bandwidth in bytes/s. */
  alpha?: number;
  bandwidth?: number;
  forwardMs?: number;
  backwardMs?: number;
  optimizerMs?: number;
}

export const COMPUTE_FLAGS = {
  forwardMs: "--forward-ms",
  backwardMs: "--backward-ms",
  optimizerMs: "--optimizer-ms",
} as const;

export interface Stepped {
  name: string;
  params: Param[];
  config: StepConfig;
  /** Where the compute times come from, in words. */
  computeSource: string;
  /** Which link --alpha / --bandwidth set: the one the all-reduce ring runs over. */
  ringLink: "intraLink" | "interLink";
}

const sameCompute = (a: ComputeConfig, b: ComputeConfig) =>
  a.forwardMs === b.forwardMs && a.backwardMs === b.backwardMs && a.optimizerMs === b.optimizerMs;

const ESTIMATE_WORDS = "forward 2·P·8,192 tokens at 400 TFLOP/s per GPU, backward twice that";

/** A list's own times: its preset's when it is a preset's very list, else estimated from its size. */
function ownCompute(params: readonly Param[]): { compute: ComputeConfig; words: string } {
  const preset = presetOfParams(params);
  if (preset) {
    const p = presetInfo(preset);
    return { compute: p.compute, words: `${p.label}'s times (the list is that preset's list)` };
  }
  const elements = params.reduce((s, p) => s + p.numel, 0);
  return {
    compute: computeForElements(elements),
    words: `estimated from the list's ${elements.toLocaleString("en-US")} elements as for an LLM (${ESTIMATE_WORDS})`,
  };
}

/** The times a link's own model brings (a preset's, or the estimate the page gave its pasted list). */
function linkModelCompute(
  settings: StepSettings,
  params: readonly Param[],
): { compute: ComputeConfig; words: string } {
  if (settings.model.kind === "preset") {
    const p = presetInfo(settings.model.id);
    const words = p.id.startsWith("llama3")
      ? `2·P·8,192 tokens at 400 TFLOP/s per GPU`
      : "plausible per-GPU figures, not measurements";
    return { compute: p.compute, words: `${p.label}'s times (${words})` };
  }
  return ownCompute(params);
}

/**
 * The step to run. `file` replaces the link's model where both are given (a pasted list too long
 * for a link travels as a file beside it); `read` reads a model file's text.
 */
export function resolveStep(
  link: StepSettings | null,
  file: { path: string; read(): string } | null,
  base: StepConfig,
  flags: StepFlags,
): Stepped {
  let name: string;
  let params: Param[];
  let compute: ComputeConfig;
  let words: string;
  if (file) {
    name = basename(file.path);
    params = parseModelList(file.read());
    ({ compute, words } = ownCompute(params));
  } else if (link && link.model.kind === "paste") {
    name = "the link's pasted list";
    params = parseModelList(link.model.text);
    ({ compute, words } = ownCompute(params));
  } else {
    const id = link?.model.kind === "preset" ? link.model.id : presetInfo("resnet50").id;
    name = `${presetInfo(id).label} (the link's model)`;
    params = presetParams(id);
    ({ compute, words } = ownCompute(params));
  }
  const config: StepConfig = link ? link.config : base;
  if (link) {
    // A link carries times only where they differ from its own model's: those are the link's.
    const own = linkModelCompute(link, params);
    if (!sameCompute(link.config.compute, own.compute)) {
      compute = link.config.compute;
      words = "the link's times";
    } else if (!file) words = own.words;
  }
  const set = (Object.keys(COMPUTE_FLAGS) as (keyof ComputeConfig)[]).filter((k) => flags[k] !== undefined);
  if (set.length > 0) {
    compute = { ...compute, ...Object.fromEntries(set.map((k) => [k, flags[k]])) };
    words =
      set.length === 3
        ? `set by ${set.map((k) => COMPUTE_FLAGS[k]).join(", ")}`
        : `${set.map((k) => COMPUTE_FLAGS[k]).join(", ")} set, the rest ${words}`;
  }
  const parallel = {
    ...config.parallel,
    ...(flags.nodes !== undefined ? { replicas: flags.nodes } : {}),
    ...(flags.gpusPerNode !== undefined ? { gpusPerReplica: flags.gpusPerNode } : {}),
  };
  const ringLink = parallel.mode === "ddp" && parallel.replicas <= 1 ? "intraLink" : "interLink";
  if (flags.alpha !== undefined || flags.bandwidth !== undefined) {
    const l = parallel[ringLink];
    parallel[ringLink] = { ...l, alpha: flags.alpha ?? l.alpha, bandwidth: flags.bandwidth ?? l.bandwidth };
  }
  return {
    name,
    params,
    config: {
      ...config,
      capMb: flags.capMb ?? config.capMb,
      firstBucketMb: flags.firstBucketMb ?? config.firstBucketMb,
      compute,
      parallel,
      slowRank: flags.slowRank ?? config.slowRank,
    },
    computeSource: words,
    ringLink,
  };
}

/** How a link reads in the report: its preset's name, "(edited)" where α or B differ from it. */
export function linkWords(link: StepConfig["parallel"]["interLink"]): string {
  const preset = linkPreset(link.id);
  const edited = preset.alpha !== link.alpha || preset.bandwidth !== link.bandwidth;
  return `${link.label}${edited ? " (edited)" : ""}: α ${(link.alpha * 1e6).toFixed(2)} µs, B ${(link.bandwidth / 1e9).toFixed(3)} GB/s`;
}
