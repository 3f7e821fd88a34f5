/**
 * The step model's worker endpoints: the view sends a model (a preset id or pasted text) and the
 * knobs; the worker parses, assigns buckets, lays out the step, sweeps the bucket cap and writes
 * the Perfetto trace. The parsed model is cached, so dragging a slider does not re-parse it.
 */
import { stepTraceJson } from "../export/stepTrace.ts";
import { ModelListError, type Param, parseModelList } from "../step/modelList.ts";
import { presetInfo } from "../step/presetCatalog.ts";
import { presetParams } from "../step/presets.ts";
import { runStep, type StepConfig, type StepResult } from "../step/stepTimeline.ts";
import { type SweepResult, sweepBucketCap } from "../step/sweep.ts";

export type ModelSource = { kind: "preset"; id: string } | { kind: "paste"; text: string };

export interface StepRequest {
  model: ModelSource;
  config: StepConfig;
}

export interface ModelInfo {
  name: string;
  params: Param[];
  bytes: number;
}

export interface ModelProblem {
  ok: false;
  error: string;
  /** The list entry at fault, when there is one. */
  entry: number | null;
}

export type StepRunReply = { ok: true; model: ModelInfo; result: StepResult } | ModelProblem;
export type StepSweepReply = { ok: true; sweep: SweepResult } | ModelProblem;
export type StepTraceReply = { ok: true; json: string; filename: string } | ModelProblem;

let cached: { key: string; model: ModelInfo } | null = null;

function load(source: ModelSource): ModelInfo {
  const key = source.kind === "preset" ? `preset:${source.id}` : `paste:${source.text}`;
  if (cached?.key === key) return cached.model;
  const params = source.kind === "preset" ? presetParams(source.id) : parseModelList(source.text);
  const name = source.kind === "preset" ? presetInfo(source.id).label : "pasted model";
  const model = { name, params, bytes: params.reduce((s, p) => s + p.bytes, 0) };
  cached = { key, model };
  return model;
}

function problem(e: unknown): ModelProblem {
  if (e instanceof ModelListError) return { ok: false, error: e.message, entry: e.entry };
  return { ok: false, error: e instanceof Error ? e.message : String(e), entry: null };
}

export const stepApi = {
  stepRun(req: StepRequest): StepRunReply {
    try {
      const model = load(req.model);
      return { ok: true, model, result: runStep(model.params, req.config) };
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
