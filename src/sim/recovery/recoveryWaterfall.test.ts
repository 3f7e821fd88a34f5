/**
 * Recovery waterfalls read back from hand-placed traces, each worked out by hand.
 * Cluster: 8 hosts, 4 replicas of 2 hosts, a 10,800 s horizon, no random failures.
 * FT-HSDP: detect 60 + restart 420 + rejoin 120; synchronous: detect 60 + restart 540.
 */
import { describe, expect, it } from "vitest";
import { legacyTrace, legacyWaterfall } from "../../testing/legacyTrace.ts";
import { runOnTrace, runScenario } from "../engine.ts";
import { failureTraceOf, type PlacedFailure } from "../failures/failureTrace.ts";
import { presetById } from "../presets.ts";
import { parseScenario, type ScenarioInput } from "../scenario/index.ts";
import { costSeconds, type Recovery, recoveryWaterfall, wallSeconds } from "./recoveryWaterfall.ts";

const H = 10_800;
const R = 4;

function waterfalls(over: ScenarioInput, rows: PlacedFailure[]) {
  const s = parseScenario({
    ...over,
    cluster: { gpus: 64, gpusPerHost: 8, replicas: R, ...over.cluster },
    training: { days: H / 86_400 },
    failures: { perHostDay: 0, ...over.failures },
  });
  const trace = runOnTrace(s, failureTraceOf(s, rows), true).trace!;
  return rows.map((_, i) => legacyWaterfall(recoveryWaterfall(trace, i, R)));
}

const phases = (r: Recovery) => r.segments.map((s) => [s.phase, s.seconds]);

describe("recoveryWaterfall", () => {
  it("a failure waiting for a spare: the replica's wait and the sync job's wait, in seconds", () => {
    // No spare; the broken host is repaired 1 h after the failure (4,600 s) and serves the request made at 1,060 s.
    const [w] = waterfalls({ spares: { pool: "limited", hosts: 0, repairHours: 1 } }, [
      { time: 1000, host: 0 },
    ]);
    expect(w!.ft.kind).toBe("replicas");
    if (w!.ft.kind !== "replicas") return;
    const [r0] = w!.ft.replicas;
    expect(r0!.replica).toBe(0);
    expect(phases(r0!)).toEqual([
      ["detect", 60],
      ["waitSpare", 3540],
      ["restart", 420],
      ["rejoin", 120],
    ]);
    expect(r0!.end).toEqual({ kind: "healthy", at: 1000 + 60 + 3540 + 420 + 120 });
    expect(phases(w!.sync)).toEqual([
      ["detect", 60],
      ["waitSpare", 3540],
      ["restart", 540],
    ]);
    expect(w!.sync.end).toEqual({ kind: "healthy", at: 5140 });
  });

  it("a rack failure striking two replicas (striped): both recover side by side", () => {
    const [w] = waterfalls({ cluster: { hostsPerRack: 2, placement: "striped" } }, [
      { time: 1000, host: 2, scope: "rack" },
    ]);
    if (w!.ft.kind !== "replicas") throw new Error("expected replica recoveries");
    expect(w!.ft.replicas.map((r) => r.replica)).toEqual([2, 3]);
    for (const r of w!.ft.replicas) {
      expect(phases(r)).toEqual([
        ["detect", 60],
        ["restart", 420],
        ["rejoin", 120],
      ]);
      expect(wallSeconds(r)).toBe(600);
    }
  });

  it("a job failure: FT-HSDP's detect + job restart and the rolled-back training", () => {
    // FT checkpoints every 10 min (10 s write) at 600 and 1,210 s; the job failure at 1,500 s
    // rolls back 280 s of training (v2rules.test.ts works it out).
    const [w] = waterfalls({ ft: { checkpointMinutes: 10, checkpointWriteSeconds: 10 } }, [
      { time: 1500, scope: "job" },
    ]);
    expect(w!.ft.kind).toBe("jobRestart");
    if (w!.ft.kind !== "jobRestart") return;
    expect(phases(w!.ft.recovery)).toEqual([
      ["detect", 60],
      ["restart", 540],
      ["lostWork", 280],
    ]);
    expect(costSeconds(w!.ft.recovery)).toBe(880);
    // The synchronous job never checkpoints here (0 = no rollback): detect + restart only.
    expect(phases(w!.sync)).toEqual([
      ["detect", 60],
      ["restart", 540],
    ]);
  });

  it("a second failure on the same replica cuts the first recovery short, and says which", () => {
    const [first, second] = waterfalls({}, [
      { time: 1000, host: 0 },
      { time: 1200, host: 1 },
    ]);
    if (first!.ft.kind !== "replicas" || second!.ft.kind !== "replicas") throw new Error("replicas");
    expect(phases(first!.ft.replicas[0]!)).toEqual([
      ["detect", 60],
      ["restart", 140],
    ]);
    expect(first!.ft.replicas[0]!.end).toEqual({ kind: "struck", at: 1200, by: 1 });
    expect(second!.ft.replicas[0]!.end.kind).toBe("healthy");
    expect(phases(first!.sync)).toEqual([
      ["detect", 60],
      ["restart", 140],
    ]);
    expect(first!.sync.end).toEqual({ kind: "struck", at: 1200, by: 1 });
  });

  it("a host failure during a job restart starts the restart again (no replica phases)", () => {
    const [, host] = waterfalls({}, [
      { time: 1000, scope: "job" },
      { time: 1100, host: 4 },
    ]);
    expect(host!.ft.kind).toBe("jobRestart");
    if (host!.ft.kind !== "jobRestart") return;
    expect(phases(host!.ft.recovery)).toEqual([
      ["detect", 60],
      ["restart", 540],
    ]);
  });

  it("a recovery still running at the horizon ends there", () => {
    const [w] = waterfalls({}, [{ time: H - 100, host: 0 }]);
    if (w!.ft.kind !== "replicas") throw new Error("replicas");
    expect(phases(w!.ft.replicas[0]!)).toEqual([
      ["detect", 60],
      ["restart", 40],
    ]);
    expect(w!.ft.replicas[0]!.end).toEqual({ kind: "horizon", at: H });
    expect(w!.sync.end.kind).toBe("horizon");
  });
});

describe("recoveryWaterfall on engine runs", () => {
  it("agrees with the failure log on every failure of a preset with a dry spare pool and a cause mix", () => {
    const s = parseScenario({
      ...presetById("spares-dry")!.scenario,
      // About 100 failures a day with 4 h repairs: some 17 hosts in repair, more than the 12 spares.
      failures: { ...presetById("llama3-405b-causes")!.scenario.failures, perHostDay: 0.05 },
      cluster: { gpus: 16_384, gpusPerHost: 8, replicas: 16, hostsPerRack: 4, placement: "striped" },
      training: { days: 10 },
      ft: { checkpointMinutes: 30, checkpointWriteSeconds: 10 },
    });
    const { trace } = runScenario(s, { record: true });
    const f = legacyTrace(trace!).failures;
    let waited = 0;
    for (let i = 0; i < f.time.length; i++) {
      const w = legacyWaterfall(recoveryWaterfall(trace!, i, s.cluster.replicas));
      // The synchronous piece is exactly the stall the log attributes to the failure.
      expect(wallSeconds(w.sync)).toBeCloseTo(f.syncStallSeconds[i]!, 6);
      expect(costSeconds(w.sync) - wallSeconds(w.sync)).toBe(f.syncLostSeconds[i]);
      if (w.ft.kind === "jobRestart") {
        expect(costSeconds(w.ft.recovery) - wallSeconds(w.ft.recovery)).toBe(f.ftLostSeconds[i]);
        continue;
      }
      expect(w.ft.replicas).toHaveLength(f.replicaCount[i]!);
      for (const r of w.ft.replicas) {
        // Back to back from the failure: the segments add up to where the recovery ended.
        expect(r.start + wallSeconds(r)).toBeCloseTo(r.end.at, 6);
        for (const seg of r.segments) expect(seg.seconds).toBeGreaterThan(0);
        waited += r.segments.filter((g) => g.phase === "waitSpare").length;
      }
    }
    // The pool runs dry: some replica's waterfall shows a wait.
    expect(waited).toBeGreaterThan(0);
  });
});
