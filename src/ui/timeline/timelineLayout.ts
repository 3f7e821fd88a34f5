/**
 * Where the timeline's tracks sit on the canvas: the layout stacks whatever tracks it is given
 * (stackTracks), each with the room it asks for (TrackSpace), under one gutter for their names.
 * It knows no track: each track reads its own slot (by its id), and a policy's tracks have ids
 * of their own (`replicas:<policyKey>`), so two policies of one kind stack side by side. The
 * built-in tracks' sizes are here too, and the replica lanes' grid inside a slot (replicaBand).
 */
import { MIN_LANE_PX } from "./lod.ts";

/** Left margin for lane labels; the plot starts here. */
export const GUTTER = 128;
/** Below NARROW_WIDTH (a phone), a narrower gutter with shorter labels leaves the plot more room. */
export const NARROW_WIDTH = 480;
const NARROW_GUTTER = 84;
const RIGHT_PAD = 8;
/** Below the last track, unless it asks otherwise. */
const PAD_BELOW = 4;
/** Between two tracks of one group (TrackSpace.group): they share the title above the first. */
export const GROUP_GAP = 6;

/** The time axis. */
export const AXIS_H = 24;
/** A whole-job policy's lane. */
export const SYNC_H = 26;
/** Above a whole-job lane that is not the first policy's (it follows another policy's lanes). */
export const WHOLE_JOB_GAP = 10;

/** Above a policy's tracks: room for its title. */
export const TITLE_GAP = 22;
/** The FT-HSDP replica lanes: 18 px a replica, between these bounds (then replicas share lanes). */
const LANE_H = 18;
const FT_MAX_H = 320;
const FT_MIN_H = 72;
/** The FT-HSDP job lane: thinner than the sync lane, it carries rare, job-wide events. */
export const JOB_H = 16;
/** Room above the spare chart for its title, and the chart itself. */
export const SPARE_GAP = 30;
export const SPARE_H = 72;
/** The chart's bottom margin. */
export const SPARE_PAD_BELOW = 6;

/**
 * The room a track asks of the layout. `height` px of band, `gapAbove` px above it (room for a
 * title) — or, right after a track of the same `group`, GROUP_GAP px: a group's tracks sit close
 * under one title. `padBelow` px below it when it is the last track. A track with `over` takes no
 * room: it draws over the band of the track with that id (rack marks over the replica lanes).
 */
export interface TrackSpace {
  height: number;
  gapAbove: number;
  padBelow?: number;
  group?: string;
  over?: string;
}

/** A track's band on the canvas (CSS px). */
export interface Slot {
  y: number;
  h: number;
}

/** The tracks stacked: the canvas's size, the plot's span, and each track's band. */
export interface Layout {
  width: number;
  height: number;
  plotLeft: number;
  plotWidth: number;
  /** Each track's band, by track id (a track drawn `over` another has that one's band). */
  slots: Readonly<Record<string, Slot>>;
  /** The top of each group's first track: its title sits above it. */
  groupTop: Readonly<Record<string, number>>;
}

/** Stacks the tracks top to bottom in the order given. */
export function stackTracks(width: number, tracks: readonly { id: string; space: TrackSpace }[]): Layout {
  const slots: Record<string, Slot> = {};
  const groupTop: Record<string, number> = {};
  let y = 0;
  let prevGroup: string | undefined;
  let pad = PAD_BELOW;
  for (const { id, space } of tracks) {
    if (space.over !== undefined) continue;
    const sameGroup = space.group !== undefined && space.group === prevGroup;
    y += sameGroup ? GROUP_GAP : space.gapAbove;
    slots[id] = { y, h: space.height };
    if (space.group !== undefined && !sameGroup) groupTop[space.group] = y;
    y += space.height;
    prevGroup = space.group;
    pad = space.padBelow ?? PAD_BELOW;
  }
  for (const { id, space } of tracks) {
    const under = space.over === undefined ? undefined : slots[space.over];
    if (under) slots[id] = under;
  }
  const gutter = width < NARROW_WIDTH ? NARROW_GUTTER : GUTTER;
  return {
    width,
    height: y + pad,
    plotLeft: gutter,
    plotWidth: Math.max(10, width - gutter - RIGHT_PAD),
    slots,
    groupTop,
  };
}

/** The replica lanes' height for this many replicas. */
export function replicaLanesHeight(replicas: number): number {
  return Math.max(FT_MIN_H, Math.min(FT_MAX_H, replicas * LANE_H));
}

/** Replicas onto lanes of at least MIN_LANE_PX in a band `height` px tall. */
export function replicaLanes(height: number, replicas: number): { lanes: number; group: number } {
  const maxLanes = Math.max(1, Math.floor(height / MIN_LANE_PX));
  const group = Math.ceil(replicas / Math.min(replicas, maxLanes));
  return { lanes: Math.ceil(replicas / group), group };
}

/** The tracks that are not a policy's: one each. */
export const TRACK_IDS = {
  axis: "axis",
  spares: "spares",
} as const;

/** A policy's tracks' ids: the kind of track, then the policy's key (one track of a kind per policy). */
export const wholeJobLaneId = (key: string): string => `sync:${key}`;
export const replicaLanesId = (key: string): string => `replicas:${key}`;
export const jobLaneId = (key: string): string => `job:${key}`;
export const rackMarksId = (key: string): string => `racks:${key}`;
export const slowShadeId = (key: string): string => `slowHosts:${key}`;
/** A replica-level policy's group (its job lane and replica lanes, under one title). */
export const replicaGroupId = (key: string): string => `policy:${key}`;

/** A dataset key naming a policy's track: ("replicaLanes", "ftHsdp") → replicaLanesFtHsdp (data-replica-lanes-ft-hsdp). */
export const datasetKey = (what: string, key: string): string =>
  `${what}${key.charAt(0).toUpperCase()}${key.slice(1)}`;

/**
 * The replica lanes' grid in one slot: where the band sits, its lanes and how many replicas
 * share one (1 unless there are too many to give each a lane), and the plot's span. What a
 * replica-level policy's tracks (lanes, rack marks, slow hosts, the replay's outlines) draw on.
 */
export interface ReplicaBand {
  y: number;
  h: number;
  lanes: number;
  group: number;
  laneH: number;
  plotLeft: number;
  plotWidth: number;
}

/** The grid of `replicas` replicas in slot `id` of layout L (null when L has no such slot). */
export function replicaBand(L: Layout, id: string, replicas: number): ReplicaBand | null {
  const slot = L.slots[id];
  if (!slot) return null;
  const { lanes, group } =
    slot.h > 0 ? replicaLanes(slot.h, replicas) : { lanes: 1, group: Math.max(1, replicas) };
  return {
    y: slot.y,
    h: slot.h,
    lanes,
    group,
    laneH: slot.h / lanes,
    plotLeft: L.plotLeft,
    plotWidth: L.plotWidth,
  };
}

/** The lane under canvas y in band B. */
export const laneAt = (B: ReplicaBand, y: number): number =>
  Math.max(0, Math.min(B.lanes - 1, Math.floor((y - B.y) / B.laneH)));

/** The built-in tracks' room (each track's `space()` returns its own). */
export const BUILT_IN_SPACE = {
  axis: { height: AXIS_H, gapAbove: 0 },
  sync: { height: SYNC_H, gapAbove: 0 },
  job: (key: string): TrackSpace => ({ height: JOB_H, gapAbove: TITLE_GAP, group: replicaGroupId(key) }),
  replicas: (replicas: number, key: string): TrackSpace => ({
    height: replicaLanesHeight(replicas),
    gapAbove: TITLE_GAP,
    group: replicaGroupId(key),
    padBelow: PAD_BELOW,
  }),
  over: (id: string): TrackSpace => ({ height: 0, gapAbove: 0, over: id }),
  spares: { height: SPARE_H, gapAbove: SPARE_GAP, padBelow: SPARE_PAD_BELOW },
};

/** "Replica 3", or "Replicas 0–7" when lanes group replicas; "R3", "R0–7" when short. */
export function laneLabel(
  B: Pick<ReplicaBand, "group">,
  replicas: number,
  lane: number,
  short = false,
): string {
  const g = B.group;
  if (g === 1) return `${short ? "R" : "Replica "}${lane}`;
  const a = lane * g;
  return `${short ? "R" : "Replicas "}${a}–${Math.min(replicas, a + g) - 1}`;
}
