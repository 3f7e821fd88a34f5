/**
 * The slow rank's effect in one sentence, from the step's own figures: the CLI prints it and the
 * One step view shows it, each with its own way of writing milliseconds. It reads the result, so
 * on screen it always speaks of the step drawn beside it.
 */
import { participatingRanks } from "./collectiveCost.ts";
import type { StepConfig, StepResult } from "./stepTimeline.ts";

const defaultMs = (x: number) => `${x.toFixed(2)} ms`;
/** A factor as a person writes it: 1.5, 2, 12.5, 1.33. */
export const factorText = (f: number) => String(Number(f.toPrecision(3)));

/** Null without a slow rank; else what it does to this step, or why it does nothing. */
export function slowRankSentence(
  config: Pick<StepConfig, "parallel" | "slowRank">,
  r: Pick<StepResult, "slowRank" | "metrics">,
  ms: (x: number) => string = defaultMs,
): string | null {
  const e = r.slowRank;
  if (!e) {
    const slow = config.slowRank;
    const ranks = participatingRanks(config.parallel);
    if (!slow || slow.kind === "none" || ranks >= 2) return null;
    return `A slow rank needs another rank to hold back: with ${ranks} GPU taking part there is none, so the step is unchanged.`;
  }
  const f = factorText(e.factor);
  const who = `rank ${e.rank} of ${e.rank + 1}`;
  const what =
    e.kind === "compute"
      ? `One rank (${who}) at ${f}× backward`
      : `One rank's ${e.link ?? "link"} at 1/${f} of its bandwidth (${who})`;
  if (e.waitedBuckets === 0)
    return `${what} holds no all-reduce back here (the ring it slows carries nothing), so the step is unchanged.`;
  const waits =
    e.waitedBuckets < e.bucketCount
      ? `${e.waitedBuckets} of ${e.bucketCount} all-reduces`
      : e.bucketCount === 1
        ? "the all-reduce"
        : "every all-reduce";
  const how = e.kind === "compute" ? "wait for its gradients" : "run at its pace";
  const stepText =
    e.exposedWaitMs > 0
      ? `+${ms(e.exposedWaitMs)} a step (${ms(e.evenStepMs)} → ${ms(r.metrics.stepMs)})`
      : "all of it hidden under backward, so the step is no longer";
  return `${what} makes ${waits} ${how}: ${ms(e.waitMs)} of waiting, ${stepText}.`;
}
