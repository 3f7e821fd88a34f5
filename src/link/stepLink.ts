/**
 * One step's settings in a link: `st=2.<checked payload>` (checkedPayload.ts) of what differs
 * from the defaults: the model (a preset by id, or a pasted list while it fits the link budget),
 * the bucket caps, the compute times where they differ from the model's, DDP/HSDP, GPUs per
 * replica, replicas, the missing replica, the algorithm, each link's preset and α–β edits, and
 * the slow rank (issue 28; a link from before it has none, and opens unchanged).
 */
import { strToU8 } from "fflate";
import * as z from "zod/mini";
import "../sim/scenario/zodSetup.ts";
import { LINK_PRESETS, type Link, linkPreset } from "../step/collectiveCost.ts";
import { DEFAULT_STEP_CONFIG, PRESET_CATALOG, presetInfo } from "../step/presetCatalog.ts";
import { NO_SLOW_RANK, SLOW_RANK_KINDS, type SlowRank } from "../step/slowRank.ts";
import { STEP_RANGES, type StepRange } from "../step/stepRanges.ts";
import type { ComputeConfig, StepConfig } from "../step/stepTimeline.ts";
import { encodeChecked, MAX_JSON_BYTES } from "./checkedPayload.ts";
import { LinkError } from "./linkError.ts";
import { decodeSettingsParam } from "./settingsParam.ts";

export type StepModel = { kind: "preset"; id: string } | { kind: "paste"; text: string };

export interface StepSettings {
  model: StepModel;
  config: StepConfig;
}

const DEFAULT_PRESET_ID = PRESET_CATALOG[0]!.id;
export const DEFAULT_STEP_MODEL: StepModel = { kind: "preset", id: DEFAULT_PRESET_ID };
export const DEFAULT_STEP_SETTINGS: StepSettings = { model: DEFAULT_STEP_MODEL, config: DEFAULT_STEP_CONFIG };

/** The most characters `st=` may take: with a scenario beside it, a link stays under 4 KB. */
export const MAX_STEP_PARAM_CHARS = 3000;

/**
 * Part of format 2 for `st=`: it must never change, so it spells the presets' ids out rather
 * than reading today's catalogues (a preset added later must not change old links).
 */
const STEP_DICTIONARY = strToU8(
  '{"model":{"paste":"[{\\"name\\": \\"weight\\", \\"shape\\": [], \\"dtype\\": \\"torch.float32\\"}, bias\\"torch.bfloat16\\"}]"},' +
    '"capMb":,"firstBucketMb":,"compute":{"forwardMs":,"backwardMs":,"optimizerMs":},"parallel":{"mode":"hsdp","ddp",' +
    '"gpusPerReplica":,"replicas":,"missingReplica":true,"algorithm":"halvingDoubling","ring","intraLink":{"id":"",' +
    '"alpha":0.0000,"bandwidth":000000000},"interLink":{"id":"nvlink-h100","roce-400","eth-100"}}}' +
    '"vit_b_16","bert_large_like","gpt2_medium_like","llama3-8b","llama3-70b","llama3-405b"',
);

/** The compute times a model starts with: its preset's, or the defaults' for a pasted list. */
function modelCompute(model: StepModel): ComputeConfig {
  return model.kind === "preset" ? presetInfo(model.id).compute : DEFAULT_STEP_CONFIG.compute;
}

function changed<T extends object>(value: T, base: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([k, v]) => v !== (base as Record<string, unknown>)[k]),
  ) as Partial<T>;
}

function linkDiff(link: Link, base: Link): Record<string, unknown> {
  const preset = linkPreset(link.id);
  const out: Record<string, unknown> = link.id === base.id ? {} : { id: link.id };
  if (link.alpha !== preset.alpha) out.alpha = link.alpha;
  if (link.bandwidth !== preset.bandwidth) out.bandwidth = link.bandwidth;
  return out;
}

/** The JSON a link carries: only what differs from the defaults. */
function diff(s: StepSettings, withPaste: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const { model, config } = s;
  if (model.kind === "paste" && withPaste) out.model = { paste: model.text };
  else if (model.kind === "preset" && model.id !== DEFAULT_PRESET_ID) out.model = model.id;
  const base = DEFAULT_STEP_CONFIG;
  if (config.capMb !== base.capMb) out.capMb = config.capMb;
  if (config.firstBucketMb !== base.firstBucketMb) out.firstBucketMb = config.firstBucketMb;
  // A pasted list that does not fit the link leaves the model out: its compute is measured
  // against the default model's then.
  const compute = changed(config.compute, modelCompute(withPaste ? model : DEFAULT_STEP_MODEL));
  if (Object.keys(compute).length > 0) out.compute = compute;
  const { intraLink, interLink, ...rest } = config.parallel;
  const { intraLink: baseIntra, interLink: baseInter, ...baseRest } = base.parallel;
  const parallel: Record<string, unknown> = changed(rest, baseRest);
  const intra = linkDiff(intraLink, baseIntra);
  const inter = linkDiff(interLink, baseInter);
  if (Object.keys(intra).length > 0) parallel.intraLink = intra;
  if (Object.keys(inter).length > 0) parallel.interLink = inter;
  if (Object.keys(parallel).length > 0) out.parallel = parallel;
  const slowRank = changed(config.slowRank ?? NO_SLOW_RANK, NO_SLOW_RANK);
  if (Object.keys(slowRank).length > 0) out.slowRank = slowRank;
  return out;
}

export interface EncodedStep {
  /** The `st=` value; "" when everything is at its default. */
  param: string;
  /** The pasted list did not fit MAX_STEP_PARAM_CHARS and was left out of the link. */
  pasteLeftOut: boolean;
}

/** Any JSON value framed as `st=` (exported for tests that build bad links); "" for {}. */
export function encodeStepPayload(value: object): string {
  return Object.keys(value).length > 0 ? encodeChecked(value, STEP_DICTIONARY) : "";
}

/**
 * Whether a link could carry this pasted list at all: a link's JSON inflates to at most
 * MAX_JSON_BYTES (the decoder refuses more), and the list's JSON is longer than its text. Checked
 * before compressing, so a 15 MB paste costs nothing here (deflating it took seconds on the main
 * thread) and a short list full of quotes (each escaped) is not put in a link that cannot open.
 */
function pasteCanTravel(value: Record<string, unknown>, model: StepModel): boolean {
  if (model.kind !== "paste") return true;
  if (model.text.length > MAX_JSON_BYTES) return false;
  return strToU8(JSON.stringify(value)).length <= MAX_JSON_BYTES;
}

export function encodeStepParam(s: StepSettings): EncodedStep {
  const withPaste = diff(s, true);
  if (pasteCanTravel(withPaste, s.model)) {
    const param = encodeStepPayload(withPaste);
    if (param.length <= MAX_STEP_PARAM_CHARS) return { param, pasteLeftOut: false };
  }
  return { param: encodeStepPayload(diff(s, false)), pasteLeftOut: true };
}

/** A number in [min, max]; an integer one when `int`. */
const number = (min: number, max: number, int = false) =>
  int ? z.number().check(z.int(), z.gte(min), z.lte(max)) : z.number().check(z.gte(min), z.lte(max));
const ranged = (r: StepRange) => number(r.min, r.max, r.integer === true);
const ms = ranged(STEP_RANGES.computeMs);
const linkSchema = z.strictObject({
  id: z.optional(z.enum(LINK_PRESETS.map((l) => l.id) as [string, ...string[]])),
  alpha: z.optional(ranged(STEP_RANGES.alphaSeconds)),
  bandwidth: z.optional(ranged(STEP_RANGES.bandwidthBytesPerSecond)),
});
const stepSchema = z.strictObject({
  model: z.optional(
    z.union([
      z.enum(PRESET_CATALOG.map((p) => p.id) as [string, ...string[]]),
      z.strictObject({ paste: z.string().check(z.maxLength(16 * 1024)) }),
    ]),
  ),
  capMb: z.optional(ranged(STEP_RANGES.capMb)),
  firstBucketMb: z.optional(ranged(STEP_RANGES.firstBucketMb)),
  compute: z.optional(z.partial(z.strictObject({ forwardMs: ms, backwardMs: ms, optimizerMs: ms }))),
  parallel: z.optional(
    z.partial(
      z.strictObject({
        mode: z.enum(["ddp", "hsdp"]),
        gpusPerReplica: ranged(STEP_RANGES.gpusPerReplica),
        replicas: ranged(STEP_RANGES.replicas),
        missingReplica: z.boolean(),
        algorithm: z.enum(["ring", "halvingDoubling"]),
        intraLink: linkSchema,
        interLink: linkSchema,
      }),
    ),
  ),
  slowRank: z.optional(
    z.partial(
      z.strictObject({
        kind: z.enum(SLOW_RANK_KINDS as [SlowRank["kind"], ...SlowRank["kind"][]]),
        factor: ranged(STEP_RANGES.slowFactor),
      }),
    ),
  ),
});

function linkFrom(edit: z.infer<typeof linkSchema> | undefined, base: Link): Link {
  const preset = edit?.id === undefined ? base : linkPreset(edit.id);
  return {
    ...preset,
    alpha: edit?.alpha ?? preset.alpha,
    bandwidth: edit?.bandwidth ?? preset.bandwidth,
  };
}

/** The settings of an `st=` value; throws LinkError naming what is wrong. */
export function decodeStepParam(param: string): StepSettings {
  if (param.length > MAX_STEP_PARAM_CHARS) {
    throw new LinkError(
      `The link's step settings are ${param.length} characters; at most ${MAX_STEP_PARAM_CHARS}.`,
    );
  }
  const v = decodeSettingsParam(param, stepSchema, STEP_DICTIONARY, "step settings");
  const model: StepModel =
    v.model === undefined
      ? DEFAULT_STEP_MODEL
      : typeof v.model === "string"
        ? { kind: "preset", id: v.model }
        : { kind: "paste", text: v.model.paste };
  const base = DEFAULT_STEP_CONFIG;
  const p = v.parallel ?? {};
  return {
    model,
    config: {
      capMb: v.capMb ?? base.capMb,
      firstBucketMb: v.firstBucketMb ?? base.firstBucketMb,
      compute: { ...modelCompute(model), ...v.compute },
      parallel: {
        mode: p.mode ?? base.parallel.mode,
        gpusPerReplica: p.gpusPerReplica ?? base.parallel.gpusPerReplica,
        replicas: p.replicas ?? base.parallel.replicas,
        missingReplica: p.missingReplica ?? base.parallel.missingReplica,
        algorithm: p.algorithm ?? base.parallel.algorithm,
        intraLink: linkFrom(p.intraLink, base.parallel.intraLink),
        interLink: linkFrom(p.interLink, base.parallel.interLink),
      },
      slowRank: { ...NO_SLOW_RANK, ...v.slowRank },
    },
  };
}
