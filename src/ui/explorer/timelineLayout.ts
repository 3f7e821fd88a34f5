/** Where the timeline's parts sit on the canvas: axis, synchronous lane, FT-HSDP lanes. */

/** Left margin for lane labels; the plot starts here. */
export const GUTTER = 128;
export const AXIS_H = 24;
export const SYNC_H = 26;
const GAP = 22;
const MIN_LANE_H = 3;
const LANE_H = 18;
const FT_MAX_H = 320;
const FT_MIN_H = 72;
const RIGHT_PAD = 8;

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
}

export function computeLayout(width: number, replicas: number): Layout {
  const ftH = Math.max(FT_MIN_H, Math.min(FT_MAX_H, replicas * LANE_H));
  const maxLanes = Math.max(1, Math.floor(ftH / MIN_LANE_H));
  const group = Math.ceil(replicas / Math.min(replicas, maxLanes));
  const lanes = Math.ceil(replicas / group);
  const syncY = AXIS_H;
  const ftY = syncY + SYNC_H + GAP;
  return {
    width,
    height: ftY + ftH + 4,
    plotLeft: GUTTER,
    plotWidth: Math.max(10, width - GUTTER - RIGHT_PAD),
    syncY,
    ftY,
    ftH,
    lanes,
    group,
    laneH: ftH / lanes,
  };
}

/** "Replica 3", or "Replicas 0–7" when lanes group replicas. */
export function laneLabel(layout: Layout, replicas: number, lane: number): string {
  const g = layout.group;
  if (g === 1) return `Replica ${lane}`;
  const a = lane * g;
  return `Replicas ${a}–${Math.min(replicas, a + g) - 1}`;
}
