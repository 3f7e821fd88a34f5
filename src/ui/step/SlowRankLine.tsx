/**
 * What the slow rank did to the step on screen, in one sentence from its figures (slowRankText.ts),
 * and the timeline's title, which with a slow rank is a healthy GPU's, not every rank's.
 */
import type { SlowRankEffect } from "../../step/slowRank.ts";
import { slowRankSentence } from "../../step/slowRankText.ts";
import type { StepConfig } from "../../step/stepTimeline.ts";
import type { StepDrawing } from "../../worker/stepApi.ts";
import { ms } from "./units.ts";

export function timelineTitle(slow: SlowRankEffect | undefined): string {
  return slow
    ? `Timeline (a healthy GPU; rank ${slow.rank} is slow and every reduction waits for it)`
    : "Timeline (one GPU; every replica runs the same step)";
}

export function SlowRankLine({ config, result }: { config: StepConfig; result: StepDrawing }) {
  const sentence = slowRankSentence(config, result, ms);
  if (!sentence) return null;
  return (
    <p className="panel step-slow-line" data-testid="slow-rank-line" aria-live="polite">
      {sentence}
    </p>
  );
}
