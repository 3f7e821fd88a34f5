/**
 * What the Trace panel is sent for the open traces: each rank's figures, the fit, and the model
 * beside one step of one rank, bounded so that a million-event trace costs the page what it can
 * draw: at most MAX_STEP_ROWS steps per rank in the table and the step menu (the count says how
 * many more), and at most MAX_BESIDE_MARKS spans per Gantt row (besideMarks.ts).
 */
import type { Link } from "../step/collectiveCost.ts";
import { mergeIntervals } from "../step/intervals.ts";
import { DEFAULT_STEP_CONFIG } from "../step/presetCatalog.ts";
import { boundBeside, boundSide } from "../step/trace/besideMarks.ts";
import { type Borrowed, borrowSizes } from "../step/trace/borrowSizes.ts";
import { collectiveOf } from "../step/trace/kernelClass.ts";
import { fitLink, fittedLink } from "../step/trace/linkFit.ts";
import type { RankFigures } from "../step/trace/measure.ts";
import { type BesideResult, modelBeside, type StepSide } from "../step/trace/modelBeside.ts";
import { type LateStart, measureSet } from "../step/trace/ranks.ts";
import { type StepContents, stepContents } from "../step/trace/stepContents.ts";
import type { RankTrace } from "../step/trace/traceModel.ts";
import { verdict, worldSizeOf } from "../step/trace/traceReport.ts";

/** Steps listed per rank (table rows, the step menu): a trace may hold thousands. */
export const MAX_STEP_ROWS = 200;
/** Residuals shown: at most this many (a trace may hold thousands of all-reduces). */
const MAX_RESIDUALS = 400;

export type RankRow = Omit<RankFigures, "activities" | "stepWindows" | "backward" | "stepActivities"> & {
  /** Kept steps in all; `steps` lists the first MAX_STEP_ROWS. */
  stepCount: number;
};

export interface TraceChoice {
  /** The rank put beside the model (its number); the first rank when absent or not open. */
  rank?: number;
  /** Bucket sizes (bytes, in all-reduce order) of the model on screen, for unsized all-reduces. */
  borrow?: readonly number[];
}

export interface TraceView {
  verdict: string;
  ranks: RankRow[];
  lateStart: LateStart[];
  warnings: string[];
  worldSize: number;
  fit:
    | {
        ok: true;
        alpha: number;
        bandwidth: number;
        interceptMs: number;
        msPerByte: number;
        r2: number;
        rmsMs: number;
        calls: number;
        residuals: { bytes: number; measuredMs: number; fittedMs: number }[];
      }
    | { ok: false; why: string };
  /** The model beside the chosen rank's chosen step, with the step view's own link. */
  beside: BesideResult | null;
  /** The rank beside the model, and every open rank it may be. */
  besideRank: number | null;
  rankChoices: number[];
  /** The chosen rank's kept steps (the first MAX_STEP_ROWS), and how many it has. */
  stepNames: string[];
  stepCount: number;
  /** The chosen step as measured, for its timeline even when the model cannot be put beside it. */
  timeline: { step: string; side: StepSide } | null;
  /** What the chosen step's window holds, and what of it the model stands for. */
  contents: StepContents | null;
  /** Communication kernels measured in the chosen step (the Gantt may draw fewer, merged). */
  stepComm: number;
  /** Whether some all-reduce carries no size, and what borrowing the model's sizes gave. */
  sizes: { unsized: number; borrowed: Omit<Borrowed, "ranks"> | null };
}

const pick = (l: Link) => ({ alpha: l.alpha, bandwidth: l.bandwidth });

/** The chosen step's activities on one time axis (ms from the step's start), bounded. */
function measuredSide(r: RankFigures, i: number): StepSide | null {
  const w = r.stepWindows[i];
  const m = r.steps[i];
  if (w === undefined || m === undefined) return null;
  const acts = r.stepActivities[i] ?? [];
  const rel = (t: number) => (t - w.start) / 1e3;
  const comm = acts.filter((a) => a.cls === "comm").sort((a, b) => a.start - b.start);
  return {
    stepMs: m.ms,
    commMs: m.commMs,
    overlapPct: m.overlapPct,
    buckets: comm.map((a) => ({ bytes: a.bytes ?? 0, start: rel(a.start), end: rel(a.end) })),
    compute: mergeIntervals(acts.filter((a) => a.cls === "compute")).map((s) => ({
      start: rel(s.start),
      end: rel(s.end),
    })),
  };
}

export function traceView(
  traces: readonly RankTrace[],
  allSteps: boolean,
  stepIndex: number,
  link: Link,
  choice: TraceChoice = {},
): TraceView {
  const set = measureSet(traces, { allSteps });
  const n = worldSizeOf(set);
  let unsized = 0;
  for (const r of set.ranks)
    for (const a of r.activities)
      if (a.cls === "comm" && a.bytes === null && collectiveOf(a.name) === "allreduce") unsized++;
  const borrowed = unsized > 0 && choice.borrow !== undefined ? borrowSizes(set.ranks, choice.borrow) : null;
  const ranks = borrowed?.ranks ?? set.ranks;
  const fit = fitLink(ranks, n);
  const chosen = ranks.find((r) => r.rank === choice.rank) ?? ranks[0];
  const step = chosen === undefined ? 0 : Math.max(0, Math.min(stepIndex, chosen.steps.length - 1));
  const beside =
    chosen === undefined || chosen.steps.length === 0
      ? null
      : modelBeside(chosen, step, DEFAULT_STEP_CONFIG, link, n);
  const side = chosen === undefined ? null : measuredSide(chosen, step);
  const window = chosen?.stepWindows[step];
  return {
    verdict: verdict(set),
    ranks: set.ranks.map(({ activities: _a, stepWindows: _w, backward: _b, stepActivities: _s, ...row }) => ({
      ...row,
      steps: row.steps.slice(0, MAX_STEP_ROWS),
      stepCount: row.steps.length,
    })),
    lateStart: set.lateStart,
    warnings: set.warnings,
    worldSize: n,
    // α and B as the link will hold them (fittedLink's rounding), so the page can tell when
    // the step model already uses them.
    fit: fit.ok
      ? {
          ok: true,
          ...fit.fit,
          ...pick(fittedLink(fit.fit, link)),
          residuals: fit.fit.residuals.slice(0, MAX_RESIDUALS),
        }
      : { ok: false, why: fit.why },
    beside: beside?.ok ? { ok: true, beside: boundBeside(beside.beside) } : beside,
    besideRank: chosen?.rank ?? null,
    rankChoices: set.ranks.map((r) => r.rank),
    stepNames: chosen?.steps.slice(0, MAX_STEP_ROWS).map((s) => s.name) ?? [],
    stepCount: chosen?.steps.length ?? 0,
    timeline:
      side === null || chosen === undefined
        ? null
        : { step: chosen.steps[step]?.name ?? "", side: boundSide(side) },
    contents:
      chosen === undefined || window === undefined
        ? null
        : stepContents(window, chosen.stepActivities[step] ?? []),
    stepComm: side?.buckets.length ?? 0,
    sizes: {
      unsized,
      borrowed:
        borrowed === null ? null : { sized: borrowed.sized, unmatched: borrowed.unmatched.slice(0, 20) },
    },
  };
}
