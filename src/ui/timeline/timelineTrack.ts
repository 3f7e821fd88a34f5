/**
 * One track of the cluster timeline: a horizontal band (or marks over another track's band) with
 * its own indexes, drawing, hover and words. The renderer (timelineRenderer.ts) stacks whatever
 * tracks it is given (timelineLayout.ts), builds them a step at a time, draws them in order and
 * asks the track under the pointer what is there; it knows no track by name. Perfetto's UI is the
 * model: one renderer per track, each reducing what it draws to what the pixels can show (lod.ts).
 *
 * A track type is a factory over the run (TrackType): the registry (timelineTrackRegistry.ts) lists
 * them in stacking order, and a policy module can bring its own.
 */
import type { Scenario } from "../../sim/scenario/index.ts";
import type { PolicyKey, PolicyRecording, RecordingKind, Trace } from "../../sim/types.ts";
import type { Moment } from "../../state/traceAt.ts";
import type { Runs, View } from "./lod.ts";
import type { Layout, TrackSpace } from "./timelineLayout.ts";
import type { HatchPattern, Palette } from "./timelinePalette.ts";
import type { TimeScale } from "./timelineScale.ts";

/** What lies under the pointer, in words, for the tooltip. */
export interface HoverInfo {
  title: string;
  lines: string[];
  /** The failure under the pointer, if any (a click selects it). */
  failure: number | null;
}

/** What every track type is made from: the run. */
export interface TrackInput {
  scenario: Scenario;
  trace: Trace;
  /** The run's length, seconds. */
  horizon: number;
}

/** One frame of the window [view.t0, view.t1], as every track draws it. */
export interface TrackFrame {
  ctx: CanvasRenderingContext2D;
  layout: Layout;
  view: View;
  x: TimeScale;
  palette: Palette;
  /** Scratch for the level of detail, shared by the tracks (one frame draws one track at a time). */
  runs: Runs;
  hatch: HatchPattern;
}

/** The pointer, for hover: canvas point (px, py) at time t (tol: five pixels, in seconds). */
export interface TrackPointer {
  layout: Layout;
  x: TimeScale;
  px: number;
  py: number;
  t: number;
  tol: number;
}

/** The replay's cursor over a drawn frame: where it is, and each policy's phase there. */
export interface ReplayFrame {
  layout: Layout;
  x: TimeScale;
  moment: Moment;
}

/** Outlines [x0, x1, y, h] (canvas px) the replay draws: solid, and dashed (a stall across a band). */
export interface ReplayMarks {
  boxes: [number, number, number, number][];
  dashed: [number, number, number, number][];
}

/** At most this many outlines a replay frame, however many replicas are down at once. */
export const MAX_REPLAY_OUTLINES = 256;

export interface Track {
  /** Unique among a renderer's tracks: the layout's slot key, and what `over` names. */
  readonly id: string;
  /** The room it asks for (it may depend on the run: the replica lanes grow with the replicas). */
  space(): TrackSpace;
  /**
   * Its indexes as steps, each bounded (the page runs each in a task of its own), for `layout`;
   * none when it has nothing to index.
   */
  buildSteps(layout: Layout): (() => void)[];
  /** The layout changed (a resize): re-index what depends on it. */
  relayout?(layout: Layout): void;
  /** Paints under every track's marks, in the frame's first step (the axis's grid, a lane's background). */
  background?(f: TrackFrame): void;
  /** The frame's marks as steps, each bounded; each returns the marks it issued. */
  drawSteps(f: TrackFrame): (() => number)[];
  /** Its names in the gutter, drawn after every track's marks (the gutter is cleared before). */
  drawLabels?(f: TrackFrame): void;
  /**
   * What lies under the pointer in its band (its slot, widened by `hoverPad` px). `below` is what
   * the tracks before it in the same band answered (a track drawn `over` another adds to it).
   */
  hover?(p: TrackPointer, below: HoverInfo | null): HoverInfo | null;
  /** The replay's outlines of what is under its cursor in this track (replayOverlay.ts draws them). */
  replay?(r: ReplayFrame): ReplayMarks;
  /** Widens the band hover answers in, px either side. */
  readonly hoverPad?: number;
  /** Data attributes for the canvas (a test or script finds the band without the layout's constants). */
  describe?(layout: Layout): Record<string, string>;
  /** Words for the canvas's accessible name: "an FT-HSDP job lane (…)" (nothing to say: null). */
  summary?(): string | null;
}

/**
 * A kind of track: makes its track for a run (or several: the policies' lanes, one group per
 * selected policy), or null when the run has nothing to show there (then it takes no room). Making
 * one is cheap: the indexes come in buildSteps.
 */
export interface TrackType {
  readonly id: string;
  create(input: TrackInput): Track | readonly Track[] | null;
}

/** One selected policy, as its lanes draw it: its key, its words, and its recording. */
export interface PolicyLane<R extends PolicyRecording = PolicyRecording> {
  key: PolicyKey;
  /** Its name in headings ("Synchronous", "In-memory checkpoints"). */
  label: string;
  /** Its name where room is short (a phone's gutter). */
  shortLabel: string;
  recording: R;
  /** Its position among the selected policies (display order). */
  index: number;
}

/**
 * A kind of track a policy's lanes are made of, for recordings of one kind (timelineTrackRegistry's
 * registerPolicyTracks): a whole-job lane for "wholeJob", the job lane, replica lanes and rack
 * marks for "replicas". Its tracks' ids must differ between policies: the lane's key is in them
 * (timelineLayout.ts's replicaLanesId and kin), and each draws in its own slot, never a band shared
 * by every policy of the kind.
 */
export interface PolicyTrackType<K extends RecordingKind = RecordingKind> {
  readonly id: string;
  readonly kind: K;
  create(input: TrackInput, lane: PolicyLane<Extract<PolicyRecording, { kind: K }>>): Track | null;
}
