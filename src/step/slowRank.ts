/**
 * A slow rank in one step (docs/model.md §6 at the scale of one step): one rank alive
 * but slow, either its backward compute taking `factor`× as long (a throttled GPU) or its link on
 * the all-reduce ring carrying `factor`× fewer bytes per second (a flapping NIC, a congested port).
 * Synchronous data parallelism waits for it: a bucket's reduction combines every rank's gradients,
 * so it starts only once the slow rank has produced them, and a ring moves its bytes at its slowest
 * link's pace. The default, "none", leaves the step exactly as it was.
 */
import { type Link, type ParallelismConfig, participatingRanks } from "./collectiveCost.ts";

export type SlowRankKind = "none" | "compute" | "link";

export interface SlowRank {
  kind: SlowRankKind;
  /** How many times slower: its backward takes factor×, or its link's bandwidth is ÷ factor. */
  factor: number;
}

export const SLOW_RANK_KINDS: readonly SlowRankKind[] = ["none", "compute", "link"];

export const NO_SLOW_RANK: SlowRank = { kind: "none", factor: 1.5 };

/** What a slow rank did to the step (with overlap), beside the same step with every rank at speed. */
export interface SlowRankEffect {
  kind: Exclude<SlowRankKind, "none">;
  factor: number;
  /** Which rank is slow: the last of those taking part (which one does not change the step). */
  rank: number;
  /** Time the drawn (healthy) GPU's communication stream spent waiting for the slow rank. */
  waitMs: number;
  /** Reductions that waited for it, of `bucketCount`. */
  waitedBuckets: number;
  bucketCount: number;
  /** What the slow rank adds to the step: its step time minus `evenStepMs`. */
  exposedWaitMs: number;
  /** The same step with every rank at speed. */
  evenStepMs: number;
  /** A slow link: which one, in words (slowLinkText). */
  link?: string;
}

/**
 * Whether a slow rank changes the step: it needs another rank to hold back, so with one rank
 * taking part (one GPU, or HSDP's one replica of one GPU) it is left out.
 */
export function slowRankActive(slow: SlowRank | undefined, parallel: ParallelismConfig): slow is SlowRank {
  return slow !== undefined && slow.kind !== "none" && participatingRanks(parallel) >= 2;
}

/** The link a slow-link rank slows: the one its all-reduce ring crosses (bucketPhases). */
export function slowLinkWhich(parallel: ParallelismConfig): "intraLink" | "interLink" {
  return parallel.mode === "ddp" && parallel.replicas <= 1 ? "intraLink" : "interLink";
}

/** Which link a slow-link rank has, in words: its preset's name and where it runs. */
export function slowLinkText(parallel: ParallelismConfig): string {
  const which = slowLinkWhich(parallel);
  const where =
    which === "intraLink" ? "inside the node" : parallel.mode === "hsdp" ? "across replicas" : "across nodes";
  return `${parallel[which].label} link ${where}`;
}

/** The parallel config whose ring runs at the slow link's pace: that link's bandwidth ÷ factor. */
export function withSlowLink(parallel: ParallelismConfig, factor: number): ParallelismConfig {
  const which = slowLinkWhich(parallel);
  const link: Link = parallel[which];
  return { ...parallel, [which]: { ...link, bandwidth: link.bandwidth / factor } };
}
