/**
 * The v2 parts of the timeline (docs/model.md §3), on traces the engine made from hand-placed
 * failures: the FT-HSDP job lane, rack marks across the replicas a rack failure struck, and the
 * spare-pool chart's step series.
 */
import { describe, expect, it } from "vitest";
import { runOnTrace } from "../../sim/engine.ts";
import { failureTraceOf, type PlacedFailure } from "../../sim/failures/failureTrace.ts";
import { parseScenario, type ScenarioInput } from "../../sim/scenario/index.ts";
import { FtJobState, type Trace } from "../../sim/types.ts";
import { legacyTrace } from "../../testing/legacyTrace.ts";
import { sortedByStart } from "./jobTrack.ts";
import { rackEvents, struckLaneRanges } from "./rackTrack.ts";
import { SpareTrack, stepIndex, stepSeries } from "./spareTrack.ts";
import {
  BUILT_IN_SPACE as B,
  jobLaneId,
  type ReplicaBand,
  replicaBand,
  replicaLanesId,
  stackTracks,
  TRACK_IDS,
  type TrackSpace,
  wholeJobLaneId,
} from "./timelineLayout.ts";
import { TimelineRenderer } from "./timelineRenderer.ts";

const H = 3 * 3600;

/** 96 hosts in 12 replicas of 8, racks of 8 hosts, 3 hours. */
function make(over: ScenarioInput, rows: PlacedFailure[]) {
  const s = parseScenario({
    ...over,
    cluster: { gpus: 768, gpusPerHost: 8, replicas: 12, hostsPerRack: 8, ...over.cluster },
    training: { days: H / 86_400 },
    failures: { perHostDay: 0, ...over.failures },
  });
  const trace = runOnTrace(s, failureTraceOf(s, rows), true).trace as Trace;
  return { s, trace };
}

const FT = replicaLanesId("ftHsdp");
const JOB = jobLaneId("ftHsdp");

/** The built-in tracks stacked as the page stacks them, with or without the optional parts. */
function stacked(parts: { job?: boolean; spares?: boolean } = {}) {
  const tracks: { id: string; space: TrackSpace }[] = [
    { id: TRACK_IDS.axis, space: B.axis },
    { id: wholeJobLaneId("synchronous"), space: B.sync },
    ...(parts.job ? [{ id: JOB, space: B.job("ftHsdp") }] : []),
    { id: FT, space: B.replicas(12, "ftHsdp") },
    ...(parts.spares ? [{ id: TRACK_IDS.spares, space: B.spares }] : []),
  ];
  return stackTracks(1000, tracks);
}

describe("layout of the optional parts", () => {
  it("the default layout has neither; a job lane pushes the replica lanes down; the chart adds height", () => {
    const plain = stacked();
    expect(plain.slots[JOB]).toBeUndefined();
    expect(plain.slots[TRACK_IDS.spares]).toBeUndefined();
    const job = stacked({ job: true });
    const ft = (L: typeof plain) => L.slots[FT] ?? { y: Number.NaN, h: Number.NaN };
    const jobSlot = job.slots[JOB] ?? { y: Number.NaN, h: Number.NaN };
    // The group's title sits above the job lane now, where it sat above the replica lanes.
    expect(jobSlot.y).toBe(ft(plain).y);
    expect(ft(job).y).toBeGreaterThan(jobSlot.y + jobSlot.h);
    expect(ft(job).h).toBe(ft(plain).h);
    const spares = stacked({ spares: true });
    const chart = spares.slots[TRACK_IDS.spares] ?? { y: Number.NaN, h: Number.NaN };
    expect(chart.y).toBeGreaterThan(ft(spares).y + ft(spares).h);
    expect(spares.height).toBeGreaterThan(chart.y + chart.h);
  });
});

describe("FT-HSDP job lane", () => {
  const { s, trace } = make(
    {
      failures: { causes: [{ name: "Software bug", share: 1, scope: "job", hang: false, newHost: false }] },
      ft: { checkpointMinutes: 30, checkpointWriteSeconds: 10 },
    },
    [{ time: 4000, scope: "job" }],
  );
  const r = new TimelineRenderer(s, trace, 1000);
  const L = r.currentLayout;
  const xAt = (t: number, t0: number, t1: number) => L.plotLeft + ((t - t0) / (t1 - t0)) * L.plotWidth;
  const jobSlot = L.slots[JOB] ?? { y: Number.NaN, h: Number.NaN };
  const jobMid = jobSlot.y + jobSlot.h / 2;

  it("is drawn when FT-HSDP restarted the job; hover names the restart and its seconds", () => {
    expect(r.job).not.toBeNull();
    const restart = legacyTrace(trace).ftJob.state.indexOf(FtJobState.jobRestart);
    const a = legacyTrace(trace).ftJob.start[restart] as number;
    const b = legacyTrace(trace).ftJob.end[restart] as number;
    // Detection 60 s + the synchronous restart 540 s.
    expect(b - a).toBe(600);
    const h = r.hover(xAt((a + b) / 2, 3000, 6000), jobMid, 3000, 6000);
    expect(h?.title).toBe("FT-HSDP job — job restart: every replica stopped (detect + restart)");
    expect(h?.lines[0]).toContain("(10.0 min, 600 s)");
    // The job failure's marker sits on this lane, and a click selects it.
    expect(r.hover(xAt(4000, 3000, 6000), jobMid, 3000, 6000)?.failure).toBe(0);
  });

  it("names the rolled-back span and a checkpoint write", () => {
    const back = legacyTrace(trace).ftJob.state.indexOf(FtJobState.rolledBack);
    const a = legacyTrace(trace).ftJob.start[back] as number;
    const b = legacyTrace(trace).ftJob.end[back] as number;
    expect([a, b]).toEqual([3610, 4000]);
    expect(r.hover(xAt(3800, 3000, 6000), jobMid, 3000, 6000)?.title).toMatch(/rolled back/);
    expect(r.hover(xAt(1805, 1780, 1830), jobMid, 1780, 1830)?.title).toMatch(
      /writing an FT-HSDP checkpoint/,
    );
  });

  it("is absent without job restarts or FT checkpoints", () => {
    const plain = make({}, [{ time: 600, host: 3 }]);
    expect(new TimelineRenderer(plain.s, plain.trace, 1000).job).toBeNull();
  });

  it("sorts an interval recorded out of order (a write cut short, then the span it rolled back)", () => {
    const j = sortedByStart({
      state: Uint8Array.from([FtJobState.checkpointing, FtJobState.rolledBack, FtJobState.jobRestart]),
      start: Float64Array.from([500, 200, 600]),
      end: Float64Array.from([600, 600, 900]),
    });
    expect(Array.from(j.start)).toEqual([200, 500, 600]);
    expect(Array.from(j.state)).toEqual([
      FtJobState.rolledBack,
      FtJobState.checkpointing,
      FtJobState.jobRestart,
    ]);
  });
});

describe("rack marks", () => {
  const striped = make({ cluster: { placement: "striped" } }, [
    { time: 600, host: 3 },
    { time: 1200, host: 13, scope: "rack" },
  ]);

  it("a striped rack failure spans the lanes of the replicas it struck, split where the run wraps", () => {
    expect(Array.from(rackEvents(striped.trace))).toEqual([1]);
    // Rack 1 = hosts 8–15 = replicas 8–11 and 0–3 under striping.
    expect(struckLaneRanges(striped.trace, 1, 12, 1)).toEqual([
      [0, 3],
      [8, 11],
    ]);
    // Lanes of 4 replicas: lanes 0 and 2; of 6 replicas: both lanes, merged into one run.
    expect(struckLaneRanges(striped.trace, 1, 12, 4)).toEqual([
      [0, 0],
      [2, 2],
    ]);
    expect(struckLaneRanges(striped.trace, 1, 12, 6)).toEqual([[0, 1]]);
  });

  it("packed racks strike one replica: nothing to mark", () => {
    const packed = make({}, [{ time: 1200, host: 13, scope: "rack" }]);
    expect(rackEvents(packed.trace).length).toBe(0);
  });

  it("hovering any struck lane names the rack and every replica the one event struck", () => {
    const r = new TimelineRenderer(striped.s, striped.trace, 1000);
    const L = r.currentLayout;
    const x = L.plotLeft + ((1200 - 1000) / 400) * L.plotWidth;
    const band = replicaBand(L, FT, striped.s.cluster.replicas) as ReplicaBand;
    const lane = (k: number) => band.y + (k + 0.5) * band.laneH;
    for (const k of [0, 3, 9]) {
      const h = r.hover(x, lane(k), 1000, 1400);
      expect(h?.failure).toBe(1);
      expect(h?.lines.at(-1)).toBe(
        "Rack 1 (hosts 8–15) failed at day 0 00:20:00: one event struck 8 replicas (0–3, 8–11)",
      );
    }
    // Replica 5 was not struck: no rack line there.
    expect(r.hover(x, lane(5), 1000, 1400)?.lines.join(" ")).not.toContain("Rack 1");
  });
});

describe("spare chart", () => {
  const view = { t0: 50, t1: 300, left: 10, width: 250 }; // 1 px per second from x = 10

  it("follows a sparse history's step function point by point, to the window's end", () => {
    const t = [0, 100, 250, 500];
    const v = [3, 1, 2, 0];
    expect(stepSeries(t, v, 1000, view)).toEqual({ x: [10, 60, 210, 260], y: [3, 1, 2, 2] });
    // The run ends inside the window: the line stops at the horizon.
    expect(stepSeries(t, v, 280, view).x.at(-1)).toBe(240);
    expect(stepIndex(t, 99)).toBe(0);
    expect(stepIndex(t, 100)).toBe(1);
  });

  it("reduces a dense history to each column's lowest, highest and last value", () => {
    const n = 20_000;
    const t = Float64Array.from({ length: n }, (_, i) => 50 + (i * 250) / n);
    const v = Int32Array.from({ length: n }, (_, i) => (i * 7919) % 13);
    const s = stepSeries(t, v, 1000, view);
    expect(s.x.length).toBeLessThanOrEqual(3 * 250 + 2);
    // Every column's range is covered and it is left at its last value.
    for (let c = 0; c < 250; c += 37) {
      const inCol = Array.from(v).filter((_, i) => Math.floor(10 + ((t[i] as number) - 50)) === 10 + c);
      const ys = s.y.filter((_, k) => s.x[k] === 10 + c);
      expect(Math.min(...ys)).toBe(Math.min(...inCol));
      expect(Math.max(...ys)).toBe(Math.max(...inCol));
      expect(ys.at(-1)).toBe(inCol.at(-1));
    }
  });

  it("hover reads both pools at the pointer's time", () => {
    const { s, trace } = make({ spares: { pool: "limited", hosts: 1, repairHours: 1 } }, [
      { time: 600, host: 3 },
      { time: 900, host: 20 },
    ]);
    const chart = new SpareTrack(trace, H);
    expect(chart.maxAvailable).toBe(1);
    expect(chart.maxWaiting).toBe(1);
    // The first request (600 + 60 s detection) takes the one spare; the second waits for the repair.
    expect(chart.hover(1000).lines).toEqual([
      "Synchronous: 0 spare hosts available, 1 request waiting",
      "FT-HSDP: 0 spare hosts available, 1 request waiting",
    ]);
    expect(chart.hover(300).lines[0]).toBe("Synchronous: 1 spare host available, 0 requests waiting");
    expect(new TimelineRenderer(s, trace, 1000).spares).not.toBeNull();
  });
});
