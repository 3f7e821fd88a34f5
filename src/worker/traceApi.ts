/**
 * The trace worker's endpoints: read a trace file (a File/Blob, streamed in pieces and gunzipped
 * on the fly, never whole), hold each rank's trace by number, and measure the open ones. Each
 * read reports its progress and stops at the next piece when cancelled.
 */
import type { Link } from "../step/collectiveCost.ts";
import { DEFAULT_STEP_CONFIG } from "../step/presetCatalog.ts";
import { fitLink, fittedLink } from "../step/trace/linkFit.ts";
import type { RankFigures } from "../step/trace/measure.ts";
import { type BesideResult, modelBeside } from "../step/trace/modelBeside.ts";
import { type LateStart, measureSet } from "../step/trace/ranks.ts";
import { TraceByteReader } from "../step/trace/traceBytes.ts";
import { MAX_TRACE_BYTES, TraceError } from "../step/trace/traceError.ts";
import type { RankTrace } from "../step/trace/traceModel.ts";
import { verdict, worldSizeOf } from "../step/trace/traceReport.ts";

export type OpenReply = { ok: true; id: number; name: string } | { ok: false; name: string; error: string };

export type RankRow = Omit<RankFigures, "activities" | "stepWindows" | "backward" | "stepActivities">;

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
  /** The model beside the first rank's chosen step, with the step view's own link. */
  beside: BesideResult | null;
  stepNames: string[];
}

export type MeasureReply = { ok: true; view: TraceView } | { ok: false; error: string };

const held = new Map<number, RankTrace>();
const cancelled = new Set<number>();
let next = 1;

/** Residuals shown: at most this many (a trace may hold thousands of all-reduces). */
const MAX_RESIDUALS = 400;

/** A trace the worker holds, by the number traceOpen gave it (the comparison reads them). */
export function heldTrace(id: number): RankTrace | undefined {
  return held.get(id);
}

const pick = (l: Link) => ({ alpha: l.alpha, bandwidth: l.bandwidth });

export const traceApi = {
  /** A number for the next file, so the page can cancel it while it reads. */
  traceTicket(): number {
    return next++;
  },

  traceCancel(ticket: number): void {
    cancelled.add(ticket);
  },

  async traceOpen(
    ticket: number,
    file: Blob,
    name: string,
    progress: (done: number, total: number) => void,
  ): Promise<OpenReply> {
    try {
      if (file.size > MAX_TRACE_BYTES) {
        throw new TraceError(
          "tooLarge",
          `it is ${(file.size / 2 ** 30).toFixed(2)} GiB; traces up to 1 GiB are read`,
        );
      }
      const reader = new TraceByteReader(name, new TextDecoder("utf-8"));
      const stream = file.stream().getReader();
      let done = 0;
      for (;;) {
        if (cancelled.has(ticket)) {
          await stream.cancel();
          return { ok: false, name, error: "cancelled" };
        }
        const { value, done: end } = await stream.read();
        if (end) break;
        reader.push(value);
        done += value.length;
        progress(done, file.size);
      }
      held.set(ticket, reader.end());
      return { ok: true, id: ticket, name };
    } catch (e) {
      return { ok: false, name, error: e instanceof Error ? e.message : String(e) };
    } finally {
      cancelled.delete(ticket);
    }
  },

  traceClose(id: number): void {
    held.delete(id);
  },

  traceMeasure(ids: readonly number[], allSteps: boolean, stepIndex: number, link: Link): MeasureReply {
    try {
      const traces = ids.map((id) => held.get(id)).filter((t): t is RankTrace => t !== undefined);
      const set = measureSet(traces, { allSteps });
      const n = worldSizeOf(set);
      const fit = fitLink(set.ranks, n);
      const first = set.ranks[0];
      const view: TraceView = {
        verdict: verdict(set),
        ranks: set.ranks.map(
          ({ activities: _a, stepWindows: _w, backward: _b, stepActivities: _s, ...row }) => row,
        ),
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
        beside:
          first === undefined || first.steps.length === 0
            ? null
            : modelBeside(first, Math.min(stepIndex, first.steps.length - 1), DEFAULT_STEP_CONFIG, link, n),
        stepNames: first?.steps.map((s) => s.name) ?? [],
      };
      return { ok: true, view };
    } catch (e) {
      return { ok: false, error: e instanceof Error ? e.message : String(e) };
    }
  },
};
