/**
 * The one range table of the One step settings: the knobs (src/ui/step/StepControls.tsx) and the
 * link's decoder (src/link/stepLink.ts) both take their bounds from here, so a knob never writes
 * into `st=` what the link then refuses (Forward 5,000,000 ms, α 2 s and B 2 PB/s were once
 * accepted by the knobs and refused on reopening). The CLI's flags (src/cli/step.ts), the compute
 * estimated for a pasted list (presetCatalog.ts) and a link fitted to a trace (trace/linkFit.ts)
 * are bounded by it too. In the units the settings hold.
 */
import { SWEEP_MAX_MB, SWEEP_MIN_MB } from "./sweep.ts";

export interface StepRange {
  readonly min: number;
  readonly max: number;
  readonly integer?: boolean;
}

export const STEP_RANGES = {
  /** Forward, backward and optimizer time per step (ms): up to 1,000 s. */
  computeMs: { min: 0, max: 1e6 },
  /** The bucket cap (MiB), as the sweep spans it. */
  capMb: { min: SWEEP_MIN_MB, max: SWEEP_MAX_MB },
  /** The first bucket (MiB). */
  firstBucketMb: { min: 0.001, max: SWEEP_MAX_MB },
  /** A link's latency per algorithm step (s): up to 1 s. */
  alphaSeconds: { min: 0, max: 1 },
  /** A link's bandwidth per rank (bytes/s): 1 MB/s to 1 PB/s. */
  bandwidthBytesPerSecond: { min: 1e6, max: 1e15 },
  gpusPerReplica: { min: 1, max: 1024, integer: true },
  replicas: { min: 1, max: 100_000, integer: true },
  /**
   * A slow rank's factor: its backward takes factor×, or its link carries ÷ factor.
   * It spans what docs/model.md §6 allows a slow host (1–100); a step's cost does not depend on it.
   */
  slowFactor: { min: 1, max: 100 },
  /** DiLoCo's inner steps per round H, as the cluster scenario's `diloco.syncEvery` takes it. */
  syncEvery: { min: 1, max: 100_000, integer: true },
  /** Streaming DiLoCo's overlapped steps τ (and τ < H, checked beside the pair). */
  overlapSteps: { min: 0, max: 99_999, integer: true },
} as const satisfies Record<string, StepRange>;
