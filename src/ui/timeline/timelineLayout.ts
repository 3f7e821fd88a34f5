/**
 * Where the timeline's tracks sit on the canvas: the layout stacks whatever tracks it is given
 * (stackTracks), each with the room it asks for (TrackSpace), under one gutter for their names.
 * The built-in tracks' sizes are here too, and their bands by name (withBands) for the modules
 * that draw across them (the replay overlay) and for tests.
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

/** A whole-job policy's lane's track id (one lane per such policy). */
export const wholeJobLaneId = (key: string): string => `${TRACK_IDS.sync}:${key}`;
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
export interface Stack {
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
export function stackTracks(width: number, tracks: readonly { id: string; space: TrackSpace }[]): Stack {
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

/** The FT-HSDP replica lanes' height for this many replicas. */
export function replicaLanesHeight(replicas: number): number {
  return Math.max(FT_MIN_H, Math.min(FT_MAX_H, replicas * LANE_H));
}

/** Replicas onto lanes of at least MIN_LANE_PX in a band `height` px tall. */
export function replicaLanes(height: number, replicas: number): { lanes: number; group: number } {
  const maxLanes = Math.max(1, Math.floor(height / MIN_LANE_PX));
  const group = Math.ceil(replicas / Math.min(replicas, maxLanes));
  return { lanes: Math.ceil(replicas / group), group };
}

/** The built-in tracks' ids: their bands by name are `withBands`'. */
export const TRACK_IDS = {
  axis: "axis",
  sync: "sync",
  job: "ftJob",
  ft: "ftReplicas",
  racks: "racks",
  spares: "spares",
} as const;

/** The replica-level policy's tracks' group (the job lane and the replica lanes, under one title). */
export const FT_GROUP = "replicas";

/**
 * A layout: the stack, with the built-in tracks' bands by name (the replay overlay draws across
 * them) and the replica lanes' grid. A band the run lacks has height 0 where the old fixed layout
 * put it (the job lane at the replica lanes' top, the spare chart below them).
 */
export interface Layout extends Stack {
  /** The first whole-job lane's top (each lane's own is its slot). */
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

function firstWholeJobY(slots: Readonly<Record<string, Slot>>): number | undefined {
  let y: number | undefined;
  for (const [id, slot] of Object.entries(slots))
    if (id.startsWith(`${TRACK_IDS.sync}:`) && (y === undefined || slot.y < y)) y = slot.y;
  return y;
}

export function withBands(stack: Stack, replicas: number): Layout {
  const { slots } = stack;
  const ft = slots[TRACK_IDS.ft] ?? { y: 0, h: 0 };
  const job = slots[TRACK_IDS.job];
  const spare = slots[TRACK_IDS.spares];
  const { lanes, group } =
    ft.h > 0 ? replicaLanes(ft.h, replicas) : { lanes: 1, group: Math.max(1, replicas) };
  return {
    ...stack,
    syncY: firstWholeJobY(slots) ?? AXIS_H,
    ftY: ft.y,
    ftH: ft.h,
    lanes,
    group,
    laneH: ft.h / lanes,
    jobY: job?.y ?? ft.y,
    jobH: job?.h ?? 0,
    spareY: spare?.y ?? ft.y + ft.h + SPARE_GAP,
    spareH: spare?.h ?? 0,
  };
}

/** The built-in tracks' room (each track's `space()` returns its own). */
export const BUILT_IN_SPACE = {
  axis: { height: AXIS_H, gapAbove: 0 },
  sync: { height: SYNC_H, gapAbove: 0 },
  job: { height: JOB_H, gapAbove: TITLE_GAP, group: FT_GROUP },
  ft: (replicas: number): TrackSpace => ({
    height: replicaLanesHeight(replicas),
    gapAbove: TITLE_GAP,
    group: FT_GROUP,
    padBelow: PAD_BELOW,
  }),
  racks: { height: 0, gapAbove: 0, over: TRACK_IDS.ft },
  spares: { height: SPARE_H, gapAbove: SPARE_GAP, padBelow: SPARE_PAD_BELOW },
} satisfies Record<keyof typeof TRACK_IDS, TrackSpace | ((replicas: number) => TrackSpace)>;

/** Optional parts of the built-in timeline: each takes space only when it has something to show. */
export interface LayoutParts {
  jobLane?: boolean;
  spareChart?: boolean;
}

/** The built-in tracks' layout, as the page stacks them for a run with these parts. */
export function computeLayout(width: number, replicas: number, parts: LayoutParts = {}): Layout {
  const B = BUILT_IN_SPACE;
  const tracks: { id: string; space: TrackSpace }[] = [
    { id: TRACK_IDS.axis, space: B.axis },
    { id: wholeJobLaneId("first"), space: B.sync },
    ...(parts.jobLane ? [{ id: TRACK_IDS.job, space: B.job }] : []),
    { id: TRACK_IDS.ft, space: B.ft(replicas) },
    { id: TRACK_IDS.racks, space: B.racks },
    ...(parts.spareChart ? [{ id: TRACK_IDS.spares, space: B.spares }] : []),
  ];
  return withBands(stackTracks(width, tracks), replicas);
}

/** "Replica 3", or "Replicas 0–7" when lanes group replicas; "R3", "R0–7" when short. */
export function laneLabel(layout: Layout, replicas: number, lane: number, short = false): string {
  const g = layout.group;
  if (g === 1) return `${short ? "R" : "Replica "}${lane}`;
  const a = lane * g;
  return `${short ? "R" : "Replicas "}${a}–${Math.min(replicas, a + g) - 1}`;
}
