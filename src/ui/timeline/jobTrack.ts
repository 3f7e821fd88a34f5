/**
 * The FT-HSDP job lane (docs/model.md §3): what the job as a whole does, apart from any one
 * replica: job restarts after a job-scope failure, blocking FT-HSDP checkpoint writes, and the
 * progress a job restart rolled back. Drawn like the synchronous lane, through the same level of
 * detail, and only when the run has something on it.
 */
import { lowerBound } from "../../sim/sorted.ts";
import {
  type FtJobIntervals,
  FtJobState,
  type PolicyRecording,
  type ReplicaRecording,
  ScopeCode,
} from "../../sim/types.ts";
import { duration } from "../format.ts";
import { type ReplicaTrace, replicaTrace } from "./ftTrack.ts";
import { type LaneIndex, laneRuns, type Runs, singleLane, type View } from "./lod.ts";
import { formatClock } from "./timeAxis.ts";
import { BUILT_IN_SPACE, datasetKey, GUTTER, jobLaneId, type Layout } from "./timelineLayout.ts";
import { drawMarkers, fillRuns, fillTraining } from "./timelineMarks.ts";
import type { HatchPattern, Palette } from "./timelinePalette.ts";
import type { TimeScale } from "./timelineScale.ts";
import type {
  HoverInfo,
  PolicyLane,
  PolicyTrackType,
  Track,
  TrackFrame,
  TrackInput,
  TrackPointer,
} from "./timelineTrack.ts";
import { failureKind } from "./timelineTracks.ts";

/** Larger kinds win a shared pixel column: a restart over a checkpoint over rolled-back work. */
export const JOB_KIND: Record<number, number> = {
  [FtJobState.rolledBack]: 1,
  [FtJobState.checkpointing]: 2,
  [FtJobState.jobRestart]: 3,
};

const JOB_STATE_LABEL: Record<number, string> = {
  [FtJobState.jobRestart]: "job restart: every replica stopped (detect + restart)",
  [FtJobState.checkpointing]: "writing an FT-HSDP checkpoint (blocking: every replica waits)",
  [FtJobState.rolledBack]: "rolled back: trained, then lost to a job restart",
};

/** How many intervals of each state the lane holds (for the canvas's description and tests). */
export interface JobLaneCounts {
  jobRestarts: number;
  checkpoints: number;
  rolledBack: number;
}

export function jobLaneCounts(trace: Pick<ReplicaTrace, "ftJob">): JobLaneCounts {
  const c = { jobRestarts: 0, checkpoints: 0, rolledBack: 0 };
  const s = trace.ftJob.state;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === FtJobState.jobRestart) c.jobRestarts++;
    else if (s[i] === FtJobState.checkpointing) c.checkpoints++;
    else if (s[i] === FtJobState.rolledBack) c.rolledBack++;
  }
  return c;
}

/** The lane is drawn only when a replica-level policy restarted the job or wrote a checkpoint. */
export function hasJobLane(rec: PolicyRecording | undefined): boolean {
  return rec?.kind === "replicas" && rec.job.start.length > 0;
}

/**
 * The job's intervals sorted by start, as the level of detail needs. The engine records an
 * interval when it ends, so a write cut short by a job failure is recorded before the rolled-back
 * span that starts earlier: the rare unsorted trace is reordered, a sorted one is used as it is.
 */
export function sortedByStart(j: FtJobIntervals): FtJobIntervals {
  const n = j.start.length;
  let sorted = true;
  for (let i = 1; i < n && sorted; i++) sorted = (j.start[i] as number) >= (j.start[i - 1] as number);
  if (sorted) return j;
  const order = Array.from({ length: n }, (_, i) => i).sort(
    (a, b) => (j.start[a] as number) - (j.start[b] as number) || a - b,
  );
  return {
    state: Uint8Array.from(order, (i) => j.state[i] as number),
    start: Float64Array.from(order, (i) => j.start[i] as number),
    end: Float64Array.from(order, (i) => j.end[i] as number),
  };
}

/** The job lane's band: its slot and the plot's width. */
export interface JobBand {
  y: number;
  h: number;
  plotWidth: number;
}

export class JobTrack {
  readonly states: LaneIndex;
  /** Job-scope failures: they strike no replica, so their markers sit on this lane. */
  readonly failures: LaneIndex;
  private readonly job: FtJobIntervals;

  constructor(
    private readonly trace: ReplicaTrace,
    private readonly label = "FT-HSDP",
  ) {
    this.job = sortedByStart(trace.ftJob);
    this.states = singleLane(this.job.start, this.job.end);
    const f = trace.failures;
    this.failures = singleLane(f.time, f.time);
  }

  /** Draws the lane; returns the marks issued. */
  draw(ctx: CanvasRenderingContext2D, L: JobBand, view: View, runs: Runs, p: Palette, hatch: HatchPattern) {
    const { failures } = this.trace;
    const ftJob = this.job;
    runs.clear();
    laneRuns(
      this.states,
      0,
      ftJob.start,
      ftJob.end,
      (i) => JOB_KIND[ftJob.state[i] as number] ?? 0,
      view,
      runs,
    );
    let marks = fillRuns(ctx, runs, L.y, L.h, {
      1: hatch.get(ctx, p),
      2: p.checkpoint,
      3: p.recovering,
    });
    runs.clear();
    const kind = failureKind(this.trace);
    const jobScope = (i: number) => (failures.scope[i] === ScopeCode.job ? kind(i) : 0);
    laneRuns(this.failures, 0, failures.time, failures.time, jobScope, view, runs);
    drawMarkers(ctx, runs, L.y, L.h, L.plotWidth, p);
    marks += runs.n;
    return marks;
  }

  /** What lies at time t on the lane (px: the pointer's x on scale x), in words. */
  hover(x: TimeScale, px: number): HoverInfo {
    const { failures } = this.trace;
    const ftJob = this.job;
    const t = x.invert(px);
    const row = topInterval(
      this.states,
      ftJob.start,
      ftJob.end,
      (i) => JOB_KIND[ftJob.state[i] as number] ?? 0,
      t,
    );
    const lines: string[] = [];
    let state = "training";
    if (row >= 0) {
      state = JOB_STATE_LABEL[ftJob.state[row] as number] ?? "";
      lines.push(spanSeconds(ftJob.start[row] as number, ftJob.end[row] as number));
    } else lines.push(formatClock(t));
    // The nearest job-scope failure within five pixels.
    const tol = x.invert(px + 5) - t;
    let failure: number | null = null;
    let best = tol;
    for (let i = lowerBound(failures.time, t - tol); i < failures.time.length; i++) {
      const ti = failures.time[i] as number;
      if (ti > t + tol) break;
      if (failures.scope[i] === ScopeCode.job && Math.abs(ti - t) <= best) {
        failure = i;
        best = Math.abs(ti - t);
      }
    }
    if (failure !== null)
      lines.push(
        `Failure #${failure + 1} at ${formatClock(failures.time[failure] as number)}: job-wide, every replica stopped`,
      );
    return { title: `${this.label} job — ${state}`, lines, failure };
  }
}

/** "day 0 01:00:00 → day 0 01:10:00 (10.0 min, 600 s)": the span and its length in seconds. */
export function spanSeconds(a: number, b: number): string {
  const s = b - a;
  const secs = `${s.toLocaleString("en-US", { maximumFractionDigits: s < 10 ? 1 : 0 })} s`;
  const len = s < 90 ? secs : `${duration(s)}, ${secs}`;
  return `${formatClock(a)} → ${formatClock(b)} (${len})`;
}

/** The row covering t with the largest kind in a one-lane index, or −1. */
function topInterval(
  idx: LaneIndex,
  start: Float64Array,
  end: Float64Array,
  kindOf: (row: number) => number,
  t: number,
): number {
  let best = -1;
  let bestKind = 0;
  const stop = idx.offsets[1] as number;
  for (let p = lowerBound(start, t - (idx.maxDuration[0] as number)); p < stop; p++) {
    const row = idx.rows[p] as number;
    if ((start[row] as number) > t) break;
    if ((end[row] as number) <= t) continue;
    const k = kindOf(row);
    if (k > bestKind) {
      best = row;
      bestKind = k;
    }
  }
  return best;
}

/** A replica-level policy's job lane as a track (id `job:<policyKey>`; made only when the run has something on it). */
class JobLane implements Track {
  readonly id: string;
  index: JobTrack | null = null;

  constructor(
    private readonly run: TrackInput,
    private readonly lane: PolicyLane<ReplicaRecording>,
  ) {
    this.id = jobLaneId(lane.key);
  }

  private band(L: Layout): JobBand {
    const slot = L.slots[this.id];
    if (!slot) throw new Error(`the layout has no slot for "${this.id}"`);
    return { y: slot.y, h: slot.h, plotWidth: L.plotWidth };
  }

  space() {
    return BUILT_IN_SPACE.job(this.lane.key);
  }

  buildSteps() {
    return [
      () => {
        this.index = new JobTrack(replicaTrace(this.run.trace, this.lane.recording), this.lane.label);
      },
    ];
  }

  private built(): JobTrack {
    if (!this.index) throw new Error("the job lane's build steps have not run");
    return this.index;
  }

  background(f: TrackFrame) {
    const B = this.band(f.layout);
    fillTraining(f, this.run.horizon, B.y, B.h);
  }

  drawSteps(f: TrackFrame) {
    const job = this.built();
    const { ctx, view, runs, palette: p, hatch } = f;
    const B = this.band(f.layout);
    return [() => job.draw(ctx, B, view, runs, p, hatch)];
  }

  drawLabels({ ctx, layout: L, palette: p }: TrackFrame) {
    const B = this.band(L);
    ctx.textAlign = "right";
    ctx.textBaseline = "middle";
    ctx.fillStyle = p.text;
    ctx.font = "600 11px system-ui, sans-serif";
    // A narrow gutter (a phone) gets the short name.
    ctx.fillText(
      L.plotLeft < GUTTER ? `${this.lane.shortLabel} job` : `${this.lane.label} job`,
      L.plotLeft - 8,
      B.y + B.h / 2,
    );
  }

  hover(p: TrackPointer) {
    return this.built().hover(p.x, p.px);
  }

  describe(L: Layout) {
    const B = this.band(L);
    return { [datasetKey("jobLane", this.lane.key)]: `${B.y},${B.h}` };
  }

  summary() {
    const job = jobLaneCounts(replicaTrace(this.run.trace, this.lane.recording));
    if (job.jobRestarts + job.checkpoints + job.rolledBack === 0) return null;
    return `an ${this.lane.label} job lane (${job.jobRestarts} job restarts, ${job.checkpoints} FT checkpoint writes, ${job.rolledBack} rollbacks)`;
  }
}

export const jobTrack: PolicyTrackType<"replicas"> = {
  id: "jobLane",
  kind: "replicas",
  create: (run, lane) => (hasJobLane(lane.recording) ? new JobLane(run, lane) : null),
};
