/**
 * The step model's worker endpoints: the view sends a model (a preset id or pasted text) and the
 * knobs; the worker parses, assigns buckets, lays out the step, sweeps the bucket cap and writes
 * the Perfetto trace. The parsed model is cached, so dragging a slider does not re-parse it.
 */
import { stepTraceJson } from "../export/stepTrace.ts";
import { ModelListError, type Param, parseModelList } from "../step/modelList.ts";
import { presetInfo } from "../step/presetCatalog.ts";
import { presetOfParams, presetParams } from "../step/presets.ts";
import type { SlowRankEffect } from "../step/slowRank.ts";
import { reduceTimeline } from "../step/stepLod.ts";
import {
  type CommSpan,
  runStep,
  type StepConfig,
  type StepMetrics,
  type StepResult,
  type StepTimeline,
} from "../step/stepTimeline.ts";
import { type SweepResult, sweepBucketCap } from "../step/sweep.ts";

export type ModelSource = { kind: "preset"; id: string } | { kind: "paste"; text: string };

/**
 * A model as a request names it: as the page holds it, or a long pasted list by the number it
 * was sent under (stepHoldPaste), so a 15 MB list crosses to the worker once, in parts, instead
 * of being copied on the page's main thread with every request.
 */
export type RequestModel = ModelSource | { kind: "held"; paste: number };

export interface StepRequest {
  model: RequestModel;
  config: StepConfig;
}

export interface ModelInfo {
  name: string;
  params: Param[];
  bytes: number;
  preset: string | null;
}

export interface ModelProblem {
  ok: false;
  error: string;
  /** The list entry at fault, when there is one. */
  entry: number | null;
  /** The request named a held paste this worker does not hold (a fresh worker): send it again. */
  notHeld?: true;
}

/** What the page shows of a model: its size, never its (maybe 200,000-entry) parameter list. */
export interface ModelSummary {
  name: string;
  count: number;
  bytes: number;
  /** Elements over all parameters (the optimizer's state scales with these, not with bytes). */
  elements: number;
  /** The preset whose list this is (a preset's own id; a paste of that very list), or null. */
  preset: string | null;
}

/** A bucket as the table and the tooltip show it: its first parameters by name. */
export interface BucketView {
  dtype: string;
  bytes: number;
  count: number;
  first: { name: string; bytes: number }[];
  /**
   * Its reduction with overlap, exact: the Gantt's communication row is reduced to marks that
   * may each stand for many buckets (stepLod.ts), so the table cannot read it from there.
   */
  reduction: {
    ready: number;
    start: number;
    end: number;
    algbw: number;
    busbw: number;
    /** With a slow rank: how long this reduction waited for it (CommSpan.wait). */
    waitMs?: number;
  } | null;
}

/** The most buckets the page is sent in detail; the Gantt's marks are bounded separately (stepLod.ts). */
export const MAX_BUCKET_VIEWS = 500;

/**
 * The step as the page draws it: bounded whatever was pasted, so handing it to the main thread
 * (structured clone) and drawing it stay cheap.
 */
export interface StepDrawing {
  bucketCount: number;
  buckets: BucketView[];
  overlapped: StepTimeline;
  baseline: StepTimeline;
  metrics: StepMetrics;
  baselineMetrics: StepMetrics;
  /** Only with a slow rank that takes effect. */
  slowRank?: SlowRankEffect;
}

export type StepRunReply = { ok: true; model: ModelSummary; result: StepDrawing } | ModelProblem;
export type StepSweepReply = { ok: true; sweep: SweepResult } | ModelProblem;
export type StepTraceReply = { ok: true; json: string; filename: string } | ModelProblem;

/** Pasted lists arriving in parts, and the last few complete ones, by number. */
const arriving = new Map<number, string[]>();
const held = new Map<number, string>();
/** Two: the list shown and one being sent to replace it. */
const HELD_PASTES = 2;

class NotHeld extends Error {}

let cached: { key: string; model: ModelInfo } | null = null;

function load(source: RequestModel): ModelInfo {
  const key =
    source.kind === "preset"
      ? `preset:${source.id}`
      : source.kind === "held"
        ? `held:${source.paste}`
        : `paste:${source.text}`;
  if (cached?.key === key) return cached.model;
  let params: Param[];
  if (source.kind === "preset") params = presetParams(source.id);
  else {
    const text = source.kind === "paste" ? source.text : held.get(source.paste);
    if (text === undefined) throw new NotHeld(`pasted list ${key} is not held here`);
    params = parseModelList(text);
  }
  const name = source.kind === "preset" ? presetInfo(source.id).label : "pasted model";
  const preset = source.kind === "preset" ? source.id : presetOfParams(params);
  const model = { name, params, bytes: params.reduce((s, p) => s + p.bytes, 0), preset };
  cached = { key, model };
  return model;
}

function reductionOf(c: CommSpan | undefined): BucketView["reduction"] {
  if (!c) return null;
  const r = { ready: c.ready, start: c.start, end: c.end, algbw: c.algbw, busbw: c.busbw };
  return c.wait ? { ...r, waitMs: c.wait.end - c.wait.start } : r;
}

function view(model: ModelInfo, r: StepResult): StepDrawing {
  return {
    bucketCount: r.buckets.length,
    buckets: r.buckets.slice(0, MAX_BUCKET_VIEWS).map((b, bi) => ({
      dtype: b.dtype,
      bytes: b.bytes,
      count: b.params.length,
      first: b.params.slice(0, 8).map((i) => ({
        name: model.params[i]?.name ?? "",
        bytes: model.params[i]?.bytes ?? 0,
      })),
      reduction: reductionOf(r.overlapped.comm[bi]),
    })),
    overlapped: reduceTimeline(r.overlapped),
    baseline: reduceTimeline(r.baseline),
    metrics: r.metrics,
    baselineMetrics: r.baselineMetrics,
    ...(r.slowRank ? { slowRank: r.slowRank } : {}),
  };
}

function problem(e: unknown): ModelProblem {
  if (e instanceof ModelListError) return { ok: false, error: e.message, entry: e.entry };
  if (e instanceof NotHeld) return { ok: false, error: e.message, entry: null, notHeld: true };
  return { ok: false, error: e instanceof Error ? e.message : String(e), entry: null };
}

export const stepApi = {
  /**
   * One part of pasted list `paste`, in order; the list is held once `last` arrives. Parts keep
   * each message (a structured clone on the page's main thread) small.
   */
  stepHoldPaste(paste: number, part: string, last: boolean): void {
    const parts = arriving.get(paste) ?? [];
    parts.push(part);
    arriving.set(paste, parts);
    if (!last) return;
    arriving.delete(paste);
    held.set(paste, parts.join(""));
    for (const old of held.keys()) if (held.size > HELD_PASTES) held.delete(old);
  },

  stepRun(req: StepRequest): StepRunReply {
    try {
      const model = load(req.model);
      const summary = {
        name: model.name,
        count: model.params.length,
        bytes: model.bytes,
        elements: model.params.reduce((s, p) => s + p.numel, 0),
        preset: model.preset,
      };
      return { ok: true, model: summary, result: view(model, runStep(model.params, req.config)) };
    } catch (e) {
      return problem(e);
    }
  },

  stepSweep(req: StepRequest): StepSweepReply {
    try {
      return { ok: true, sweep: sweepBucketCap(load(req.model).params, req.config) };
    } catch (e) {
      return problem(e);
    }
  },

  stepTrace(req: StepRequest): StepTraceReply {
    try {
      const model = load(req.model);
      const json = stepTraceJson(model.name, model.params, req.config, runStep(model.params, req.config));
      const slug = model.name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
      return { ok: true, json, filename: `step-${slug}-${req.config.capMb.toFixed(1)}MiB.json` };
    } catch (e) {
      return problem(e);
    }
  },
};
