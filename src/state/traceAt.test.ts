import { describe, expect, it } from "vitest";
import { runScenario } from "../sim/engine.ts";
import { replicaRecording } from "../sim/recordings.ts";
import { parseScenario } from "../sim/scenario/index.ts";
import { FtPhase, type ReplicaRecording, type Trace } from "../sim/types.ts";
import { legacyTrace } from "../testing/legacyTrace.ts";
import { fixtureTrace } from "../testing/traceFixture.ts";
import {
  containing,
  ftAt,
  longestFtPhase,
  momentAt,
  nextChange,
  nextFailure,
  previousChange,
  progressAt,
} from "./traceAt.ts";

/** A recorded engine run with overlapping recoveries: 4 replicas, a failure every ~40 min, a day. */
function recordedRun() {
  const scenario = parseScenario({
    cluster: { gpus: 512, gpusPerHost: 8, replicas: 4 },
    training: { days: 1 },
    failures: { perHostDay: 0.6, hangFraction: 0.3 },
    sync: { checkpointMinutes: 30, checkpointWriteSeconds: 20 },
    ft: { catchUpSeconds: 90 },
    seed: 7,
  });
  const run = runScenario(scenario, { record: true });
  if (!run.trace) throw new Error("no trace recorded");
  return { run, trace: run.trace };
}

/** Every FT-HSDP interval covering t, found the slow way. */
function bruteForceFt(rec: ReplicaRecording, t: number): number[] {
  const ft = rec.intervals;
  const rows: number[] = [];
  for (let i = 0; i < ft.start.length; i++)
    if ((ft.start[i] as number) <= t && (ft.end[i] as number) > t) rows.push(i);
  return rows;
}

/** The FT-HSDP recording of a trace. */
function ftOf(trace: Trace): ReplicaRecording {
  const r = replicaRecording(trace, "ftHsdp");
  if (!r) throw new Error("no FT-HSDP recording");
  return r;
}

/** The replica policy's part of a moment. */
function stallRowAt(trace: Trace, t: number): number {
  const m = momentAt(trace, t).policies.find((p) => p.kind === "replicas");
  if (m?.kind !== "replicas") throw new Error("no replica policy in the moment");
  return m.stallRow;
}

describe("containing", () => {
  it("finds the interval holding t among abutting ones", () => {
    const start = Float64Array.from([0, 10, 20]);
    const end = Float64Array.from([10, 20, 25]);
    expect(containing(start, end, 10)).toBe(1);
    expect(containing(start, end, 24.9)).toBe(2);
    expect(containing(start, end, 30)).toBe(-1);
  });
});

describe("progressAt", () => {
  it("interpolates a curve and, where it drops (a rollback), takes the value after the drop", () => {
    // The engine's curve format: points in time order, two at one instant where work is lost.
    const curve = {
      t: Float64Array.from([0, 600, 1200, 2000, 2000, 3600]),
      useful: Float64Array.from([0, 600, 600, 1400, 1000, 2600]),
    };
    expect(progressAt(curve, 0)).toBe(0);
    expect(progressAt(curve, 300)).toBe(300);
    expect(progressAt(curve, 900)).toBe(600);
    expect(progressAt(curve, 1600)).toBe(1000);
    expect(progressAt(curve, 2000)).toBe(1000);
    expect(progressAt(curve, 2800)).toBe(1800);
    expect(progressAt(curve, 3600)).toBe(2600);
    expect(progressAt(curve, 5000)).toBe(2600);
    expect(progressAt({ t: new Float64Array(), useful: new Float64Array() }, 10)).toBe(0);
  });

  it("ends at each policy's useful time on a recorded run, and FT-HSDP never decreases", () => {
    const { run, trace: recorded } = recordedRun();
    const trace = legacyTrace(recorded);
    const H = run.synchronous!.wallSeconds;
    expect(progressAt(trace.progress.synchronous, H)).toBeCloseTo(run.synchronous!.usefulSeconds, 6);
    expect(progressAt(trace.progress.ftHsdp, H)).toBeCloseTo(run.ftHsdp!.usefulSeconds, 6);
    let last = 0;
    for (let t = 0; t <= H; t += 97) {
      const u = progressAt(trace.progress.ftHsdp, t);
      expect(u).toBeGreaterThanOrEqual(last - 1e-9);
      expect(u).toBeLessThanOrEqual(t + 1e-9);
      last = u;
    }
  });
});

describe("ftAt", () => {
  it("names the replicas in each phase, as a full scan would", () => {
    const ft = ftOf(recordedRun().trace);
    const longest = longestFtPhase(ft);
    expect(ft.intervals.start.length).toBeGreaterThan(20);
    for (let t = 0; t < 86_400; t += 61) {
      const now = ftAt(ft, t, longest);
      const expected = bruteForceFt(ft, t);
      expect([...now.rows].sort((a, b) => a - b)).toEqual(expected);
      const counts = [0, 0, 0, 0, 0, 0, 0];
      for (const r of expected)
        counts[ft.intervals.phase[r] as number] = (counts[ft.intervals.phase[r] as number] ?? 0) + 1;
      expect(now.phaseCounts).toEqual(counts);
      expect(now.partial).toBe(false);
    }
  });

  it("reads the fixture's first failure phase by phase", () => {
    const trace = fixtureTrace();
    const ft = ftOf(trace);
    const longest = longestFtPhase(ft);
    expect(ftAt(ft, 600, longest).phaseCounts[FtPhase.detect]).toBe(1);
    expect(stallRowAt(trace, 600)).toBe(0);
    expect(ftAt(ft, 700, longest).phaseCounts[FtPhase.restart]).toBe(1);
    expect(stallRowAt(trace, 700)).toBe(-1);
    expect(ftAt(ft, 1100, longest).phaseCounts[FtPhase.rejoin]).toBe(1);
    expect(ftAt(ft, 1500, longest).rows).toEqual([]);
  });
});

describe("nextChange and previousChange", () => {
  it("step through every failure and every phase boundary, forward and back", () => {
    const { trace } = recordedRun();
    const L = legacyTrace(trace);
    const stops: number[] = [];
    for (let t = 0; ; ) {
      const n = nextChange(trace, t);
      if (!Number.isFinite(n)) break;
      expect(n).toBeGreaterThan(t);
      stops.push(n);
      t = n;
    }
    const boundaries = new Set([
      ...trace.failures.time,
      ...L.ft.start,
      ...L.ft.end,
      ...L.sync.start,
      ...L.sync.end,
      ...L.ftStalls.start,
      ...L.ftStalls.end,
    ]);
    expect(new Set(stops)).toEqual(new Set([...boundaries].filter((b) => b > 0)));
    // Backwards gives the same stops, in reverse.
    const back: number[] = [];
    for (let t = stops.at(-1) ?? 0; t > 0; ) {
      t = previousChange(trace, t);
      back.push(t);
    }
    expect(back.reverse()).toEqual([0, ...stops.slice(0, -1)]);
  });

  it("finds the next failure", () => {
    const trace = fixtureTrace();
    expect(nextFailure(trace, 0)).toBe(0);
    expect(nextFailure(trace, 600)).toBe(1);
    expect(nextFailure(trace, 2000)).toBe(-1);
  });
});

describe("any selection of policies", () => {
  it("a moment has one part per selected policy, in display order, and the steps stop at each one's changes", () => {
    const scenario = parseScenario({
      policies: ["hotSpare", "ftHsdp", "inMemory"],
      cluster: { gpus: 512, gpusPerHost: 8, replicas: 4 },
      training: { days: 1 },
      failures: { perHostDay: 0.6 },
      seed: 7,
    });
    const run = runScenario(scenario, { record: true });
    const trace = run.trace!;
    const m = momentAt(trace, 40_000);
    expect(m.policies.map((p) => [p.key, p.kind])).toEqual([
      ["hotSpare", "wholeJob"],
      ["ftHsdp", "replicas"],
      ["inMemory", "wholeJob"],
    ]);
    const H = run.ftHsdp!.wallSeconds;
    for (const p of momentAt(trace, H).policies) expect(p.useful).toBeCloseTo(run[p.key]!.usefulSeconds, 6);
    // Every interval boundary of the in-memory job's lane is a stop of the replay's steps.
    const rec = trace.recordings.inMemory!;
    const stops = new Set<number>();
    for (let t = 0; ; ) {
      t = nextChange(trace, t);
      if (!Number.isFinite(t)) break;
      stops.add(t);
    }
    expect(rec.intervals.start.length).toBeGreaterThan(0);
    for (const b of [...rec.intervals.start, ...rec.intervals.end])
      if (b > 0 && b < H) expect(stops).toContain(b);
  });
});
