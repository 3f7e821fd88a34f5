/**
 * The trace worker's comparison of two held trace sets, control and test (docs/trace.md,
 * "Comparing two trace sets"): each rank measured, then each pair of ranks diffed, one at a
 * time with a turn of the event loop between, so progress is reported and a cancel is heard at
 * the next rank. What goes back to the page is bounded (steps and ops rows capped, timelines
 * coarsened); the measured ranks of the last comparison are kept, and only they, so another
 * step's timeline is a lookup.
 */

import { bucketsOf, diffSentence, mainPart } from "../step/trace/diffReport.ts";
import { type AlignedStep, alignStep } from "../step/trace/diffTimeline.ts";
import { measureRank, type RankFigures } from "../step/trace/measure.ts";
import type { OpBucket, OpRow } from "../step/trace/opsDiff.ts";
import { checkRanks } from "../step/trace/ranks.ts";
import type { Part, StepSplit } from "../step/trace/stepSplit.ts";
import { combineRanks, diffRank, matchRanks, type RankDiff, type StepDiff } from "../step/trace/traceDiff.ts";
import type { RankTrace } from "../step/trace/traceModel.ts";
import { heldTrace } from "./traceApi.ts";

/** Step rows per rank and ops rows sent to the page; the rest are counted, not sent. */
export const MAX_STEP_ROWS = 200;
export const MAX_OP_ROWS = 100;

export interface RankDiffRow extends Omit<RankDiff, "steps"> {
  main: Part;
  steps: StepDiff[];
  /** Matched steps in all, of which `steps` holds the first MAX_STEP_ROWS. */
  stepCount: number;
}

export interface CompareView {
  sentence: string;
  pairs: number;
  control: StepSplit;
  test: StepSplit;
  delta: StepSplit;
  main: Part;
  ranks: RankDiffRow[];
  ops: OpRow[];
  opCount: number;
  buckets: Record<OpBucket, number>;
  notes: string[];
  /** The first matched step of the first rank, aligned. */
  aligned: AlignedStep | null;
}

export type CompareReply =
  | { ok: true; ticket: number; view: CompareView }
  | { ok: false; cancelled: boolean; error: string };

const cancelled = new Set<number>();
let kept: { ticket: number; pairs: [RankFigures, RankFigures][] } | null = null;

const turn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

class Cancelled extends Error {}

function traces(ids: readonly number[], side: string): RankTrace[] {
  return ids.map((id) => {
    const t = heldTrace(id);
    if (t === undefined) throw new Error(`a ${side} trace is no longer open`);
    return t;
  });
}

export const traceCompareApi = {
  traceCompareCancel(ticket: number): void {
    cancelled.add(ticket);
  },

  async traceCompare(
    ticket: number,
    controlIds: readonly number[],
    testIds: readonly number[],
    allSteps: boolean,
    progress: (done: number, total: number, what: string) => void,
  ): Promise<CompareReply> {
    kept = null;
    try {
      const sides = [traces(controlIds, "control"), traces(testIds, "test")] as const;
      const total = 2 * (sides[0].length + sides[1].length);
      let done = 0;
      const step = async (what: string) => {
        progress(done, total, what);
        await turn();
        if (cancelled.has(ticket)) throw new Cancelled();
      };
      const measured: RankFigures[][] = [];
      for (const [s, list] of sides.entries()) {
        const name = s === 0 ? "control" : "test";
        const figures: RankFigures[] = [];
        for (const [i, t] of list.entries()) {
          await step(`measuring ${name} ${t.file}`);
          figures.push(measureRank(t, i, { allSteps }));
          done++;
        }
        checkRanks(list, figures);
        measured.push(figures);
      }
      const { pairs, notes } = matchRanks(measured[0] ?? [], measured[1] ?? []);
      const diffs: RankDiff[] = [];
      for (const [c, t] of pairs) {
        await step(`comparing rank ${c.rank}`);
        diffs.push(diffRank(c, t));
        done += 2;
      }
      await step("comparing kernels");
      const d = combineRanks(diffs, pairs, notes);
      const buckets = bucketsOf(d.ops);
      const first = pairs[0];
      kept = { ticket, pairs };
      progress(total, total, "done");
      return {
        ok: true,
        ticket,
        view: {
          sentence: diffSentence(d),
          pairs: d.pairs,
          control: d.control,
          test: d.test,
          delta: d.delta,
          main: mainPart(d.delta),
          ranks: d.ranks.map((r) => ({
            ...r,
            main: mainPart(r.delta),
            steps: r.steps.slice(0, MAX_STEP_ROWS),
            stepCount: r.steps.length,
          })),
          ops: d.ops.slice(0, MAX_OP_ROWS),
          opCount: d.ops.length,
          buckets: Object.fromEntries(Object.entries(buckets).map(([k, v]) => [k, v.length])) as Record<
            OpBucket,
            number
          >,
          notes: d.notes,
          aligned: first === undefined ? null : alignStep(first[0], first[1], 0),
        },
      };
    } catch (e) {
      if (e instanceof Cancelled) return { ok: false, cancelled: true, error: "cancelled" };
      return { ok: false, cancelled: false, error: e instanceof Error ? e.message : String(e) };
    } finally {
      cancelled.delete(ticket);
    }
  },

  /** Another matched step's aligned timeline, from the last comparison (null if it is gone). */
  traceCompareStep(ticket: number, rank: number, index: number): AlignedStep | null {
    if (kept === null || kept.ticket !== ticket) return null;
    const pair = kept.pairs.find(([c]) => c.rank === rank);
    return pair === undefined ? null : alignStep(pair[0], pair[1], index);
  },

  /** Lets go of the last comparison's measured ranks. */
  traceCompareRelease(ticket: number): void {
    if (kept?.ticket === ticket) kept = null;
  },
};
