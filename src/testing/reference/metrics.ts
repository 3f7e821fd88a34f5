/**
 * What the reference's policy loops report (docs/model.md "Metrics", §3 "New metrics", §4
 * "Where the time goes"), and the small bookkeeping they share.
 */

/** The per-run figures both readings produce (docs/model.md "Metrics" and §3 "New metrics"). */
export interface ReferenceMetrics {
  ettr: number;
  usefulSeconds: number;
  failures: number;
  stallSeconds: number;
  lostWorkSeconds: number;
  checkpoints: number;
  degradedSeconds: number;
  /** FT-HSDP only: seconds with exactly k replicas in one of the recovery phases (sync: empty). */
  secondsWithKDown: number[];
  jobRestarts: number;
  /** Synchronous: wall seconds in waitSpare; FT-HSDP: replica-seconds in waitSpare. */
  spareWaitSeconds: number;
  /** The longest single stay in waitSpare (one replica's, for FT-HSDP). */
  longestSpareWaitSeconds: number;
  poolEmptySeconds: number;
  /** Per cause of knobs.causes: failures, and the failure stall attributed to it (see below). */
  perCause: { count: number; stallSeconds: number }[];
  /** §4 "Where the time goes": seconds of wall time lost to each category (÷ horizon = share). */
  badput: Badput;
}

/** §4's badput categories, in seconds; useful + Σ = the horizon. */
export interface Badput {
  detection: number;
  recovery: number;
  spareWait: number;
  rejoin: number;
  checkpointWrite: number;
  rolledBack: number;
  degraded: number;
  overhead: number;
  /** §6: training at a slow host's pace. */
  slow: number;
  /** §7: blocked after a round's compute until the next round (DiLoCo's outer sync). */
  outerSync: number;
  /** §7: (1 − q) of the committed inner steps (DiLoCo's convergence price). */
  convergence: number;
}

export const noBadput = (): Badput => ({
  detection: 0,
  recovery: 0,
  spareWait: 0,
  rejoin: 0,
  checkpointWrite: 0,
  rolledBack: 0,
  degraded: 0,
  overhead: 0,
  slow: 0,
  outerSync: 0,
  convergence: 0,
});

export const INF = Number.POSITIVE_INFINITY;

/** Longest-stay bookkeeping for waitSpare, shared by both policies. */
export class SpareWaits {
  total = 0;
  longest = 0;
  close(since: number, t: number): void {
    this.longest = Math.max(this.longest, t - since);
  }
}
