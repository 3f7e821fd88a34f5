/**
 * Version-2 rules (docs/model.md §3) on hand-placed failures, each result worked out by hand.
 * Cluster: 8 hosts, 4 replicas (2 hosts each), a 10,800 s horizon, no random failures.
 * FT-HSDP recovery: detect 60 + restart 420 + rejoin 120 (stall 180 s, down 420 s); sync restart 540.
 */
import { describe, expect, it } from "vitest";
import { legacyTrace } from "../testing/legacyTrace.ts";
import { closedForms, youngDalySeconds } from "./closedForms/closedForms.ts";
import { runOnTrace } from "./engine.ts";
import { failureTraceOf, type PlacedFailure } from "./failures/failureTrace.ts";
import { parseScenario, type ScenarioInput } from "./scenario/index.ts";
import { FtJobState, FtPhase, SyncState } from "./types.ts";

const H = 10_800;

function scenario(over: ScenarioInput = {}) {
  return parseScenario({
    ...over,
    cluster: { gpus: 64, gpusPerHost: 8, replicas: 4, ...over.cluster },
    training: { days: H / 86_400 },
    failures: { perHostDay: 0, ...over.failures },
  });
}

const run = (over: ScenarioInput, rows: PlacedFailure[]) => {
  const s = scenario(over);
  return runOnTrace(s, failureTraceOf(s, rows), true);
};

describe("racks and placement", () => {
  it("striped: a rack of 2 hosts strikes two replicas, which recover side by side", () => {
    const r = run({ cluster: { hostsPerRack: 2, placement: "striped" } }, [
      { time: 1000, host: 2, scope: "rack" },
    ]);
    const t = legacyTrace(r.trace!);
    expect(t.failures.replicaCount[0]).toBe(2);
    expect([...t.ft.replica].filter((_, i) => t.ft.phase[i] === FtPhase.detect).sort()).toEqual([2, 3]);
    // Stalls overlap: 180 s; two replicas down for 420 s: useful = H − 180 − 2·420/4.
    expect(r.ftHsdp!.stallSeconds).toBe(180);
    expect(r.ftHsdp!.usefulSeconds).toBe(H - 180 - (2 * 420) / 4);
  });

  it("packed: the same rack lies inside one replica", () => {
    const r = run({ cluster: { hostsPerRack: 2 } }, [{ time: 1000, host: 2, scope: "rack" }]);
    expect(r.trace!.failures.replicaCount[0]).toBe(1);
    expect(r.ftHsdp!.usefulSeconds).toBe(H - 180 - 420 / 4);
  });
});

describe("FTAR hang timeout", () => {
  it("FT-HSDP drops a hung member after min(hangSeconds, timeout); the sync job waits for the watchdog", () => {
    const r = run({ ft: { hangTimeoutSeconds: 60 } }, [{ time: 1000, host: 0, hang: true }]);
    expect(r.ftHsdp!.stallSeconds).toBe(60 + 120);
    expect(r.synchronous!.stallSeconds).toBe(600 + 540);
  });
});

describe("job-scope failures under FT-HSDP", () => {
  it("a job restart stalls everything for detect + sync restart and rolls back to the last checkpoint", () => {
    // Checkpoint every 10 min of training, 10 s write: writes at 600–610, 1210–1220; job failure at 1500.
    const r = run({ ft: { checkpointMinutes: 10, checkpointWriteSeconds: 10 } }, [
      { time: 1500, scope: "job" },
    ]);
    expect(r.ftHsdp!.jobRestarts).toBe(1);
    // The second write starts at 1210 s of wall time and saves 1200 s of training; at 1500 the job
    // had trained 1500 − 20 = 1480 s: 280 s are rolled back.
    expect(r.ftHsdp!.lostWorkSeconds).toBe(280);
    expect(legacyTrace(r.trace!).ftJob.state).toContain(FtJobState.jobRestart);
    expect(legacyTrace(r.trace!).ftJob.state).toContain(FtJobState.rolledBack);
  });

  it("a job failure during a replica's catch-up cancels the replica's phases", () => {
    const r = run({ ft: { catchUpSeconds: 300 } }, [
      { time: 1000, host: 0 },
      { time: 1600, scope: "job" },
    ]);
    const t = legacyTrace(r.trace!);
    const catchUp = [...t.ft.phase].indexOf(FtPhase.catchUp);
    expect(t.ft.end[catchUp]).toBe(1600);
    expect(t.ft.phase).not.toContain(FtPhase.rejoin);
  });

  it("with ft.checkpointMinutes 0 a job failure loses nothing (optimistic)", () => {
    const r = run({}, [{ time: 5000, scope: "job" }]);
    expect(r.ftHsdp!.lostWorkSeconds).toBe(0);
    expect(r.ftHsdp!.stallSeconds).toBe(60 + 540);
  });

  it("a checkpoint write cut by a job failure is lost", () => {
    // Write due at 600 s (10 s); the job failure at 605 aborts it: everything since 0 is rolled back.
    const r = run({ ft: { checkpointMinutes: 10, checkpointWriteSeconds: 10 } }, [
      { time: 605, scope: "job" },
    ]);
    expect(r.ftHsdp!.lostWorkSeconds).toBe(600);
    const j = legacyTrace(r.trace!).ftJob;
    expect([j.state[0], j.start[0], j.end[0]]).toEqual([FtJobState.checkpointing, 600, 605]);
  });
});

describe("spare pools", () => {
  const limited = (hosts: number, repairHours = 1): ScenarioInput => ({
    spares: { pool: "limited", hosts, repairHours },
  });

  it("an empty pool: the replica waits (down) until the repair, the sync job waits (stalled)", () => {
    const r = run(limited(0), [{ time: 1000, host: 0 }]);
    // Request at 1060; the broken host is repaired at 1000 + 3600 = 4600 and serves it.
    expect(r.ftHsdp!.spareWaitSeconds).toBe(4600 - 1060);
    expect(r.ftHsdp!.longestSpareWaitSeconds).toBe(4600 - 1060);
    expect(r.synchronous!.spareWaitSeconds).toBe(4600 - 1060);
    expect(r.synchronous!.stallSeconds).toBe(60 + (4600 - 1060) + 540);
    // The repaired host is handed out the instant it arrives: the pool is never non-empty.
    expect(r.ftHsdp!.poolEmptySeconds).toBe(H);
    expect(legacyTrace(r.trace!).ft.phase).toContain(FtPhase.waitSpare);
    expect(legacyTrace(r.trace!).sync.state).toContain(SyncState.waitSpare);
  });

  it("one spare: the first request is served at once, the second waits for a repair", () => {
    const r = run(limited(1), [
      { time: 1000, host: 0 },
      { time: 2000, host: 4 },
    ]);
    // Second request at 2060 waits until the first host's repair at 4600.
    expect(r.ftHsdp!.spareWaitSeconds).toBe(4600 - 2060);
  });

  it("a job restart does not wait for spares; afterwards the owed replica resumes at waitSpare", () => {
    const r = run(limited(0), [
      { time: 1000, host: 0 },
      { time: 1200, scope: "job" },
    ]);
    const t = legacyTrace(r.trace!);
    const waits = [...t.ft.phase]
      .map((p, i) => [p, t.ft.start[i]!, t.ft.end[i]!])
      .filter(([p]) => p === FtPhase.waitSpare);
    // Waiting 1060–1200 (cancelled by the job failure), then again from the job restart's end (1800) to 4600.
    expect(waits).toEqual([
      [FtPhase.waitSpare, 1060, 1200],
      [FtPhase.waitSpare, 1800, 4600],
    ]);
  });
});

describe("closed forms, version 2", () => {
  it("§3's worked check: sync with 30-min checkpoints and a 10 s write gives 22.0 %", () => {
    const s = parseScenario({ sync: { checkpointMinutes: 30, checkpointWriteSeconds: 10 } });
    expect(closedForms(s).syncRenewal.value).toBeCloseTo(0.22, 3);
  });

  it("says why a form does not apply", () => {
    expect(closedForms(parseScenario({ failures: { arrivals: "weibull" } })).syncRenewal.value).toBeNull();
    const job = parseScenario({
      failures: { causes: [{ name: "bug", share: 1, scope: "job" }] },
    });
    expect(closedForms(job).ftFirstOrder).toEqual({
      value: null,
      note: "job-scope causes: a job restart and its rollback are not in the form",
    });
  });

  it("Young/Daly: √(2W/λ)", () => {
    expect(youngDalySeconds(10, 1 / 1080)).toBeCloseTo(Math.sqrt(21_600), 9);
  });
});
