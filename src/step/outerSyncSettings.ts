/**
 * The inputs of One step's DiLoCo panel (the link between replicas, H and τ), their defaults and
 * their one cross-field rule, apart from the maths (outerSync.ts) so the step link that carries
 * them stays small.
 */
/** The link between replicas: α in seconds, bandwidth in bytes per second. */
export interface ReplicaLink {
  alpha: number;
  bandwidth: number;
}

/** Inner steps per round (H) and steps the sync overlaps (τ, below H). */
export interface SyncCadence {
  syncEvery: number;
  overlapSteps: number;
}

/** The One step view's outer-sync panel: the link between replicas and the cadence it compares. */
export interface OuterSyncSettings extends SyncCadence {
  link: ReplicaLink;
}

/**
 * Assumed, not measured: a 10 Gb/s link between datacenters with 10 ms of latency, H = 100 (the
 * cluster scenario's default) and τ = 5 for Streaming DiLoCo.
 */
export const DEFAULT_OUTER_SYNC: OuterSyncSettings = {
  link: { alpha: 0.01, bandwidth: 1.25e9 },
  syncEvery: 100,
  overlapSteps: 5,
};

/** Why a cadence cannot be, naming both fields (τ must be below H), or null. */
export function cadenceProblem(c: SyncCadence): string | null {
  return c.overlapSteps < c.syncEvery
    ? null
    : `overlap τ (${c.overlapSteps}) must be below sync every H (${c.syncEvery}): τ in [0, H − 1]`;
}
