/**
 * Where the timeline's parts sit on the canvas: axis, synchronous lane, the FT-HSDP job lane (only
 * when the job restarted or wrote a checkpoint), the FT-HSDP replica lanes, and the spare-pool
 * chart (only with a limited pool).
 */

/** Left margin for lane labels; the plot starts here. */
export const GUTTER = 128;
/** Below NARROW_WIDTH (a phone), a narrower gutter with shorter labels leaves the plot more room. */
export const NARROW_WIDTH = 480;
const NARROW_GUTTER = 84;
export const AXIS_H = 24;
export const SYNC_H = 26;
const GAP = 22;
const MIN_LANE_H = 3;
const LANE_H = 18;
const FT_MAX_H = 320;
const FT_MIN_H = 72;
const RIGHT_PAD = 8;
/** The FT-HSDP job lane: thinner than the sync lane, it carries rare, job-wide events. */
export const JOB_H = 16;
const JOB_GAP = 6;
/** Room above the spare chart for its title, and the chart itself. */
const SPARE_GAP = 30;
const SPARE_H = 72;

/** Optional parts of the timeline: each takes space only when it has something to show. */
export interface LayoutParts {
  jobLane?: boolean;
  spareChart?: boolean;
}

export interface Layout {
  width: number;
  height: number;
  plotLeft: number;
  plotWidth: number;
  syncY: number;
  ftY: number;
  ftH: number;
  lanes: number;
  /** Replicas per lane (1 unless there are too many to give each a lane). */
  group: number;
  laneH: number;
  /** The FT-HSDP job lane; jobH is 0 when there is none. */
  jobY: number;
  jobH: number;
  /** The spare-pool chart (plot area); spareH is 0 when there is none. */
  spareY: number;
  spareH: number;
}

export function computeLayout(width: number, replicas: number, parts: LayoutParts = {}): Layout {
  const ftH = Math.max(FT_MIN_H, Math.min(FT_MAX_H, replicas * LANE_H));
  const maxLanes = Math.max(1, Math.floor(ftH / MIN_LANE_H));
  const group = Math.ceil(replicas / Math.min(replicas, maxLanes));
  const lanes = Math.ceil(replicas / group);
  const syncY = AXIS_H;
  const jobY = syncY + SYNC_H + GAP;
  const jobH = parts.jobLane ? JOB_H : 0;
  const ftY = parts.jobLane ? jobY + jobH + JOB_GAP : jobY;
  const spareY = ftY + ftH + SPARE_GAP;
  const spareH = parts.spareChart ? SPARE_H : 0;
  const gutter = width < NARROW_WIDTH ? NARROW_GUTTER : GUTTER;
  return {
    width,
    height: parts.spareChart ? spareY + spareH + 6 : ftY + ftH + 4,
    plotLeft: gutter,
    plotWidth: Math.max(10, width - gutter - RIGHT_PAD),
    syncY,
    ftY,
    ftH,
    lanes,
    group,
    laneH: ftH / lanes,
    jobY,
    jobH,
    spareY,
    spareH,
  };
}

/** "Replica 3", or "Replicas 0–7" when lanes group replicas; "R3", "R0–7" when short. */
export function laneLabel(layout: Layout, replicas: number, lane: number, short = false): string {
  const g = layout.group;
  if (g === 1) return `${short ? "R" : "Replica "}${lane}`;
  const a = lane * g;
  return `${short ? "R" : "Replicas "}${a}–${Math.min(replicas, a + g) - 1}`;
}
