/**
 * A semi-synchronous policy's rounds on the timeline (DiLoCo, docs/model.md §7), made only when
 * its recording has rounds:
 *
 * - a rounds lane above its replica lanes (id `rounds:<policyKey>`): each round's H inner steps as
 *   training, its outer sync in the sync colour, a discarded round (a failure in its sync, a job
 *   restart, every participant lost) hatched as rolled-back work over its whole span;
 * - over the replica lanes (id `roundWork:<policyKey>`), painted under the recovery phases as the
 *   slow shade is: each replica's discarded work (the round it was computing when it died,
 *   hatched) and its idle waits for the next round after a recovery (the idle shade).
 *
 * Everything goes through the level of detail (lod.ts), so a year of rounds costs a pixel column
 * each at most; the indexes are built in bounded steps like every other track's.
 */
import { lowerBound } from "../../sim/sorted.ts";
import {
  type ReplicaRecording,
  type ReplicaSpans,
  type RoundIntervals,
  RoundOutcome,
} from "../../sim/types.ts";
import { count } from "../format.ts";
import { spanSeconds } from "./jobTrack.ts";
import { type LaneIndex, laneRuns, singleLane } from "./lod.ts";
import { LaneSpans, OverReplicaLanes } from "./overReplicaLanes.ts";
import { formatClock } from "./timeAxis.ts";
import { BUILT_IN_SPACE, datasetKey, GUTTER, type Layout } from "./timelineLayout.ts";
import { fillRuns, fillTraining } from "./timelineMarks.ts";
import type {
  HoverInfo,
  PolicyLane,
  PolicyTrackType,
  Track,
  TrackFrame,
  TrackInput,
  TrackPointer,
} from "./timelineTrack.ts";

export const roundsLaneId = (key: string): string => `rounds:${key}`;
export const roundWorkId = (key: string): string => `roundWork:${key}`;

/** Larger kinds win a shared pixel column: a discarded round over a sync. */
const SYNC = 1;
const DISCARDED = 2;
/** On the replica lanes: discarded work over an idle wait. */
const IDLE = 1;
const LOST = 2;

/** How many rounds of each outcome the run recorded (the canvas's words, and tests). */
export function roundCounts(r: RoundIntervals): { committed: number; discarded: number; pending: number } {
  const c = { committed: 0, discarded: 0, pending: 0 };
  for (let i = 0; i < r.outcome.length; i++) {
    const o = r.outcome[i];
    if (o === RoundOutcome.committed) c.committed++;
    else if (o === RoundOutcome.discarded) c.discarded++;
    else c.pending++;
  }
  return c;
}

/**
 * The rounds lane's marks as intervals sorted by start: a committed (or pending) round's sync
 * [computeEnd, end] as SYNC, a discarded round's whole span [start, end] as DISCARDED. A round
 * still computing at the horizon (computeEnd NaN) is training: no mark.
 */
export function roundMarks(r: RoundIntervals): { start: Float64Array; end: Float64Array; kind: Uint8Array } {
  const n = r.start.length;
  const start: number[] = [];
  const end: number[] = [];
  const kind: number[] = [];
  for (let i = 0; i < n; i++) {
    const e = r.end[i] as number;
    if (r.outcome[i] === RoundOutcome.discarded) {
      start.push(r.start[i] as number);
      end.push(e);
      kind.push(DISCARDED);
    } else {
      const c = r.computeEnd[i] as number;
      if (Number.isNaN(c) || !(e > c)) continue;
      start.push(c);
      end.push(e);
      kind.push(SYNC);
    }
  }
  return spansIn(sortedOrder(start), start, end, kind);
}

/** Row order by start (stable): the level of detail reads each lane in start order. */
function sortedOrder(start: ArrayLike<number>): number[] {
  const order = Array.from({ length: start.length }, (_, i) => i);
  let sorted = true;
  for (let i = 1; i < start.length && sorted; i++) sorted = (start[i] as number) >= (start[i - 1] as number);
  if (!sorted) order.sort((a, b) => (start[a] as number) - (start[b] as number) || a - b);
  return order;
}

function spansIn(order: number[], start: number[], end: number[], kind: number[]) {
  return {
    start: Float64Array.from(order, (i) => start[i] as number),
    end: Float64Array.from(order, (i) => end[i] as number),
    kind: Uint8Array.from(order, (i) => kind[i] as number),
  };
}

/**
 * Each replica's idle waits and discarded work as one span list sorted by start, with its kind.
 * A discard of every participant (replica −1: a failed sync, a job restart) is on the rounds lane,
 * not here.
 */
export function replicaRoundWork(r: RoundIntervals): {
  replica: Int32Array;
  start: Float64Array;
  end: Float64Array;
  kind: Uint8Array;
} {
  const parts: [ReplicaSpans, number][] = [
    [r.idle, IDLE],
    [r.discarded, LOST],
  ];
  const replica: number[] = [];
  const start: number[] = [];
  const end: number[] = [];
  const kind: number[] = [];
  for (const [s, k] of parts) {
    for (let i = 0; i < s.replica.length; i++) {
      if ((s.replica[i] as number) < 0) continue;
      replica.push(s.replica[i] as number);
      start.push(s.start[i] as number);
      end.push(s.end[i] as number);
      kind.push(k);
    }
  }
  const order = sortedOrder(start);
  return {
    replica: Int32Array.from(order, (i) => replica[i] as number),
    ...spansIn(order, start, end, kind),
  };
}

/** The round whose span [start, end) holds t (the latest begun when a sync overlaps the next round), or −1. */
export function roundAt(r: RoundIntervals, t: number, horizon: number): number {
  // Rounds are in start order; a Streaming DiLoCo sync overlaps only the next round's first steps.
  const i = lowerBound(r.start, t + Number.EPSILON * Math.abs(t)) - 1;
  for (let k = i; k >= 0 && k >= i - 2; k--) {
    const e = Number.isNaN(r.end[k] as number) ? horizon : (r.end[k] as number);
    if ((r.start[k] as number) <= t && t < e) return k;
  }
  return -1;
}

const OUTCOME_WORD: Record<number, string> = {
  [RoundOutcome.committed]: "committed",
  [RoundOutcome.discarded]: "discarded: every participant's steps lost",
  [RoundOutcome.pending]: "under way at the run's end",
};

/** The round in words: its compute, its sync, who took part and how it ended. */
export function roundLines(r: RoundIntervals, k: number): string[] {
  const s = r.start[k] as number;
  const c = r.computeEnd[k] as number;
  const e = r.end[k] as number;
  const lines = [
    `${OUTCOME_WORD[r.outcome[k] as number] ?? ""}, ${count(r.participants[k] as number)} participants`,
  ];
  if (Number.isNaN(c)) lines.push(`inner steps from ${formatClock(s)}, still computing`);
  else {
    lines.push(`inner steps ${spanSeconds(s, c)}`);
    if (e > c) lines.push(`outer sync ${spanSeconds(c, e)}`);
  }
  return lines;
}

class RoundsLane implements Track {
  readonly id: string;
  private marks: ReturnType<typeof roundMarks> | null = null;
  private index: LaneIndex | null = null;

  constructor(
    private readonly run: TrackInput,
    private readonly lane: PolicyLane<ReplicaRecording>,
    private readonly rounds: RoundIntervals,
  ) {
    this.id = roundsLaneId(lane.key);
  }

  private band(L: Layout): { y: number; h: number } {
    const slot = L.slots[this.id];
    if (!slot) throw new Error(`the layout has no slot for "${this.id}"`);
    return slot;
  }

  space() {
    // The job lane's room, in the policy's group: under its title with the job and replica lanes.
    return BUILT_IN_SPACE.job(this.lane.key);
  }

  buildSteps() {
    return [
      () => {
        const m = roundMarks(this.rounds);
        this.index = singleLane(m.start, m.end);
        this.marks = m;
      },
    ];
  }

  private built() {
    if (!this.marks || !this.index) throw new Error("the rounds lane's build steps have not run");
    return { m: this.marks, idx: this.index };
  }

  background(f: TrackFrame) {
    const B = this.band(f.layout);
    fillTraining(f, this.run.horizon, B.y, B.h);
  }

  drawSteps(f: TrackFrame) {
    return [
      () => {
        const { m, idx } = this.built();
        const B = this.band(f.layout);
        f.runs.clear();
        laneRuns(idx, 0, m.start, m.end, (i) => m.kind[i] as number, f.view, f.runs);
        return fillRuns(f.ctx, f.runs, B.y, B.h, {
          [SYNC]: f.palette.outerSync,
          [DISCARDED]: f.hatch.get(f.ctx, f.palette),
        });
      },
    ];
  }

  drawLabels({ ctx, layout: L, palette: p }: TrackFrame) {
    const B = this.band(L);
    ctx.textAlign = "right";
    ctx.textBaseline = "middle";
    ctx.fillStyle = p.text;
    ctx.font = "600 11px system-ui, sans-serif";
    // A phone's gutter has room for one word: the group's title above names the strategy.
    ctx.fillText(L.plotLeft < GUTTER ? "Rounds" : `${this.lane.label} rounds`, L.plotLeft - 8, B.y + B.h / 2);
  }

  hover(p: TrackPointer): HoverInfo {
    const k = roundAt(this.rounds, p.t, this.run.horizon);
    if (k < 0) return { title: `${this.lane.label} rounds`, lines: [formatClock(p.t)], failure: null };
    return {
      title: `${this.lane.label} — round ${count(k + 1)}`,
      lines: roundLines(this.rounds, k),
      failure: null,
    };
  }

  describe(L: Layout) {
    const B = this.band(L);
    return { [datasetKey("roundsLane", this.lane.key)]: `${B.y},${B.h}` };
  }

  summary() {
    const c = roundCounts(this.rounds);
    return `a ${this.lane.label} rounds lane (${c.committed} rounds committed, ${c.discarded} discarded)`;
  }
}

/** Idle waits and discarded work over a policy's replica lanes, under its recovery phases. */
class RoundWork extends OverReplicaLanes {
  private work: ReturnType<typeof replicaRoundWork> | null = null;
  private spans: LaneSpans | null = null;

  constructor(
    id: string,
    run: TrackInput,
    lane: PolicyLane<ReplicaRecording>,
    private readonly rounds: RoundIntervals,
  ) {
    super(id, run, lane);
  }

  buildSteps(L: Layout) {
    return [
      () => {
        const w = replicaRoundWork(this.rounds);
        this.spans = new LaneSpans(w.replica, w.start, w.end);
        this.work = w;
      },
      () => this.spans?.regroup(this.band(L)),
    ];
  }

  relayout(L: Layout) {
    this.spans?.regroup(this.band(L));
  }

  private built() {
    if (!this.work || !this.spans) throw new Error("the round work's build steps have not run");
    return { w: this.work, spans: this.spans };
  }

  background(f: TrackFrame) {
    const { w, spans } = this.built();
    spans.fill(f, this.band(f.layout), (i) => w.kind[i] as number, {
      [IDLE]: f.palette.idle,
      [LOST]: f.hatch.get(f.ctx, f.palette),
    });
  }

  /** On a lane: an idle wait or discarded work of its replicas at the pointer's time. */
  hover(ptr: TrackPointer, below: HoverInfo | null) {
    if (!below) return below;
    const { w, spans } = this.built();
    const i = spans.at(this.laneUnder(ptr), ptr.t)[0];
    if (i === undefined) return below;
    const what =
      w.kind[i] === LOST
        ? "discarded: the round it was computing when it failed"
        : "idle: recovered, waiting for the next round";
    return {
      ...below,
      lines: [
        ...below.lines,
        `Replica ${w.replica[i]} ${what}, ${spanSeconds(w.start[i] as number, w.end[i] as number)}`,
      ],
    };
  }
}

const roundsOf = (lane: PolicyLane<ReplicaRecording>): RoundIntervals | null => {
  const r = lane.recording.rounds;
  return r && r.start.length > 0 ? r : null;
};

export const roundsTrack: PolicyTrackType<"replicas"> = {
  id: "roundsLane",
  kind: "replicas",
  create: (run, lane) => {
    const r = roundsOf(lane);
    return r ? new RoundsLane(run, lane, r) : null;
  },
};

export const roundWorkTrack: PolicyTrackType<"replicas"> = {
  id: "roundWork",
  kind: "replicas",
  create: (run, lane) => {
    const r = roundsOf(lane);
    return r && r.idle.replica.length + r.discarded.replica.length > 0
      ? new RoundWork(roundWorkId(lane.key), run, lane, r)
      : null;
  },
};
