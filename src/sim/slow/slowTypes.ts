/** §6: a run's slow episodes, in a leaf module so the failure trace can carry them (slowEpisodes.ts draws them). */

/** Episodes in order of their start; `end` is where each ends (its eviction, for an evicted one). */
export interface SlowEpisodes {
  count: number;
  start: Float64Array;
  end: Float64Array;
  host: Int32Array;
  /** 1 = evicted at `end`. */
  evicted: Uint8Array;
  factor: number;
}
