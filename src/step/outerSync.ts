/**
 * DiLoCo's outer sync on a link between replicas, and the compute utilisation it leaves
 * (docs/model.md §7). One outer sync all-reduces the pseudo-gradients (the model's bytes) among
 * p replicas: T = 2·bytes·(p − 1)/p / bandwidth + α (one replica: nothing to sync, T = 0). A round
 * is H inner steps of s seconds; the sync overlaps the next τ of them, so the replicas block for
 * B = max(0, T − τ·s) and the utilisation is H·s / (H·s + B). Data parallelism is H = 1, τ = 0;
 * DiLoCo is H, τ = 0; Streaming DiLoCo is H with τ > 0.
 */
import type { OuterSyncSettings, ReplicaLink, SyncCadence } from "./outerSyncSettings.ts";
import { STEP_RANGES } from "./stepRanges.ts";

export type StrategyId = "dp" | "diloco" | "streaming";

export interface SyncStrategy extends SyncCadence {
  id: StrategyId;
  label: string;
}

/** The three strategies the chart compares, for a DiLoCo cadence H and a Streaming overlap τ. */
export function syncStrategies(syncEvery: number, overlapSteps: number): SyncStrategy[] {
  return [
    { id: "dp", label: "Data parallel", syncEvery: 1, overlapSteps: 0 },
    { id: "diloco", label: "DiLoCo", syncEvery, overlapSteps: 0 },
    { id: "streaming", label: "Streaming DiLoCo", syncEvery, overlapSteps },
  ];
}

/** Bytes one replica sends (and receives) in a ring all-reduce of `bytes` among p: 2·bytes·(p − 1)/p. */
export function syncVolume(bytes: number, replicas: number): number {
  return replicas <= 1 ? 0 : (2 * bytes * (replicas - 1)) / replicas;
}

/** One outer sync (s): 2·bytes·(p − 1)/p / bandwidth + α; 0 with one replica. */
export function outerSyncSeconds(bytes: number, replicas: number, link: ReplicaLink): number {
  if (replicas <= 1) return 0;
  return syncVolume(bytes, replicas) / link.bandwidth + link.alpha;
}

/** The time the replicas block after each round's compute: max(0, T − τ·s). */
export function blockedSeconds(syncSeconds: number, stepSeconds: number, overlapSteps: number): number {
  return Math.max(0, syncSeconds - overlapSteps * stepSeconds);
}

/** H·s / (H·s + B); 1 when nothing blocks (also for a step of no compute). */
export function computeUtilisation(stepSeconds: number, cadence: SyncCadence, syncSeconds: number): number {
  const blocked = blockedSeconds(syncSeconds, stepSeconds, cadence.overlapSteps);
  if (blocked === 0) return 1;
  const compute = cadence.syncEvery * stepSeconds;
  return compute / (compute + blocked);
}

export interface SyncProblem {
  bytes: number;
  replicas: number;
  /** α of the link between replicas (s). */
  alpha: number;
  stepSeconds: number;
}

/**
 * The least bandwidth (bytes/s) at which the utilisation reaches `target` (in (0, 1)): 0 when any
 * bandwidth does (one replica, or nothing to send and α within the budget), null when none does
 * (α alone takes the budget τ·s + H·s·(1 − target)/target, or a step has no compute).
 * From H·s / (H·s + max(0, V/bw + α − τ·s)) ≥ target: bw ≥ V / (τ·s + H·s·(1 − u)/u − α).
 */
export function bandwidthFor(target: number, p: SyncProblem, cadence: SyncCadence): number | null {
  if (p.replicas <= 1) return 0;
  const volume = syncVolume(p.bytes, p.replicas);
  const budget =
    cadence.overlapSteps * p.stepSeconds + (cadence.syncEvery * p.stepSeconds * (1 - target)) / target;
  const slack = budget - p.alpha;
  if (volume === 0) return slack >= 0 ? 0 : null;
  return slack > 0 ? volume / slack : null;
}

/** The utilisations the panel names the bandwidth for. */
export const UTILISATION_TARGETS = [0.5, 0.9, 0.99] as const;

/** The chart's bandwidth axis (bytes/s): the range a link may be set to (STEP_RANGES). */
const AXIS_MIN = STEP_RANGES.bandwidthBytesPerSecond.min;
const AXIS_MAX = STEP_RANGES.bandwidthBytesPerSecond.max;

/**
 * The chart's bandwidth range, in whole decades: a decade either side of the link's own bandwidth
 * and of every finite, positive bandwidth named for a target, within the range a link may take.
 */
export function bandwidthAxis(linkBandwidth: number, needed: readonly (number | null)[]): [number, number] {
  const shown = [linkBandwidth, ...needed.filter((b): b is number => b !== null && b > 0)];
  const clamp = (v: number) => Math.min(AXIS_MAX, Math.max(AXIS_MIN, v));
  const lo = clamp(10 ** Math.floor(Math.log10(Math.min(...shown)) - 1));
  const hi = clamp(10 ** Math.ceil(Math.log10(Math.max(...shown)) + 1));
  return lo < hi ? [lo, hi] : [AXIS_MIN, AXIS_MAX];
}

export interface CurvePoint {
  bandwidth: number;
  utilisation: number;
}

/** The utilisation at `count` log-spaced bandwidths across [lo, hi] (count ≥ 2). */
export function utilisationCurve(
  p: SyncProblem,
  cadence: SyncCadence,
  [lo, hi]: [number, number],
  count = 97,
): CurvePoint[] {
  const a = Math.log10(lo);
  const b = Math.log10(hi);
  return Array.from({ length: count }, (_, i) => {
    const bandwidth = 10 ** (a + ((b - a) * i) / (count - 1));
    const t = outerSyncSeconds(p.bytes, p.replicas, { alpha: p.alpha, bandwidth });
    return { bandwidth, utilisation: computeUtilisation(p.stepSeconds, cadence, t) };
  });
}

export interface StrategyFigures {
  strategy: SyncStrategy;
  /** The utilisation on the panel's link. */
  utilisation: number;
  /** The bandwidth for each of UTILISATION_TARGETS (bandwidthFor: 0 any, null none). */
  needed: (number | null)[];
}

export interface OuterSyncFigures {
  /** One outer sync on the panel's link (s). */
  syncSeconds: number;
  strategies: StrategyFigures[];
  axis: [number, number];
}

/** Everything the panel shows, for a model's bytes, p replicas, a step's compute and the panel's settings. */
export function outerSyncFigures(
  model: { bytes: number; replicas: number; stepSeconds: number },
  outer: OuterSyncSettings,
): OuterSyncFigures {
  const problem: SyncProblem = { ...model, alpha: outer.link.alpha };
  const syncSeconds = outerSyncSeconds(model.bytes, model.replicas, outer.link);
  const strategies = syncStrategies(outer.syncEvery, outer.overlapSteps).map((strategy) => ({
    strategy,
    utilisation: computeUtilisation(model.stepSeconds, strategy, syncSeconds),
    needed: UTILISATION_TARGETS.map((u) => bandwidthFor(u, problem, strategy)),
  }));
  const axis = bandwidthAxis(
    outer.link.bandwidth,
    strategies.flatMap((s) => s.needed),
  );
  return { syncSeconds, strategies, axis };
}
