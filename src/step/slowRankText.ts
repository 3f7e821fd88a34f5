/**
 * The slow rank's effect in one sentence, from the step's own figures: the CLI prints it and the
 * One step view shows it, each with its own way of writing milliseconds.
 */
import { participatingRanks } from "./collectiveCost.ts";
import { slowLinkWhich } from "./slowRank.ts";
import type { StepConfig, StepResult } from "./stepTimeline.ts";

const defaultMs = (x: number) => `${x.toFixed(2)} ms`;
/** A factor as a person writes it: 1.5, 2, 12.5, 1.33. */
export const factorText = (f: number) => String(Number(f.toPrecision(3)));

/** Which link a slow-link rank has, in words: its preset's name and where it runs. */
export function slowLinkText(config: Pick<StepConfig, "parallel">): string {
  const p = config.parallel;
  const which = slowLinkWhich(p);
  const where =
    which === "intraLink" ? "inside the node" : p.mode === "hsdp" ? "across replicas" : "across nodes";
  return `${p[which].label} link ${where}`;
}

/** Null without a slow rank; else what it does to this step, or why it does nothing. */
export function slowRankSentence(
  config: Pick<StepConfig, "parallel" | "slowRank">,
  r: Pick<StepResult, "slowRank" | "metrics">,
  ms: (x: number) => string = defaultMs,
): string | null {
  const slow = config.slowRank;
  if (!slow || slow.kind === "none") return null;
  const e = r.slowRank;
  if (!e) {
    return `A slow rank needs another rank to hold back: with ${participatingRanks(config.parallel)} GPU taking part there is none, so the step is unchanged.`;
  }
  const f = factorText(e.factor);
  const who = `rank ${e.rank} of ${e.rank + 1}`;
  const what =
    e.kind === "compute"
      ? `One rank (${who}) at ${f}× backward`
      : `One rank's ${slowLinkText(config)} at 1/${f} of its bandwidth (${who})`;
  if (e.waitedBuckets === 0)
    return `${what} holds no all-reduce back here (the ring it slows carries nothing), so the step is unchanged.`;
  const waits =
    e.waitedBuckets < e.bucketCount
      ? `${e.waitedBuckets} of ${e.bucketCount} all-reduces`
      : e.bucketCount === 1
        ? "the all-reduce"
        : "every all-reduce";
  const cause = e.kind === "compute" ? "for its gradients" : "at its pace";
  const verb = e.kind === "compute" ? "wait" : "run";
  const stepText =
    e.exposedWaitMs > 0
      ? `+${ms(e.exposedWaitMs)} a step (${ms(e.evenStepMs)} → ${ms(r.metrics.stepMs)})`
      : "all of it hidden under backward, so the step is no longer";
  return `${what} makes ${waits} ${verb} ${cause}: ${ms(e.waitMs)} of waiting, ${stepText}.`;
}
