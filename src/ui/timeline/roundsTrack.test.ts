/**
 * The rounds lane and the round work over the replica lanes, read from the engine's own DiLoCo
 * recording: every round is drawn (as its sync, or whole when discarded), every idle wait and
 * per-replica discard is on its replica's lane, and the words under the pointer are the round's.
 */
import { describe, expect, it } from "vitest";
import { runScenario } from "../../sim/engine.ts";
import { parseScenario } from "../../sim/scenario/index.ts";
import { type ReplicaRecording, type RoundIntervals, RoundOutcome } from "../../sim/types.ts";
import { replicaRoundWork, roundAt, roundCounts, roundLines, roundMarks } from "./roundsTrack.ts";

const scenario = parseScenario({
  cluster: { gpus: 1024, gpusPerHost: 8, replicas: 8 },
  failures: { perHostDay: 0.05 },
  training: { days: 3, stepSeconds: 10 },
  policies: ["ftHsdp", "diloco"],
  diloco: { syncEvery: 30, syncSeconds: 120, overlapSteps: 0, stepEquivalence: 0.9 },
});

function rounds(): { r: RoundIntervals; horizon: number } {
  const run = runScenario(scenario, { record: true });
  const rec = run.trace?.recordings.diloco as ReplicaRecording | undefined;
  if (!rec?.rounds) throw new Error("DiLoCo recorded no rounds");
  return { r: rec.rounds, horizon: scenario.training.days * 86_400 };
}

describe("DiLoCo's rounds on the timeline", () => {
  const { r, horizon } = rounds();
  const c = roundCounts(r);

  it("the run has committed and discarded rounds, and idle waits (else this test proves nothing)", () => {
    expect(c.committed).toBeGreaterThan(10);
    expect(c.discarded).toBeGreaterThan(0);
    expect(r.idle.replica.length).toBeGreaterThan(0);
    expect(c.committed + c.discarded + c.pending).toBe(r.start.length);
  });

  it("marks each committed round's sync and each discarded round's whole span, sorted by start", () => {
    const m = roundMarks(r);
    const syncs = m.kind.filter((k) => k === 1).length;
    const discarded = m.kind.filter((k) => k === 2).length;
    expect(discarded).toBe(c.discarded);
    // Every committed round with a sync (syncSeconds 120 > 0) has its mark.
    expect(syncs).toBeGreaterThanOrEqual(c.committed);
    for (let i = 1; i < m.start.length; i++)
      expect(m.start[i]).toBeGreaterThanOrEqual(m.start[i - 1] as number);
    const firstCommitted = Array.from(r.outcome).indexOf(RoundOutcome.committed);
    const at = Array.from(m.start).indexOf(r.computeEnd[firstCommitted] as number);
    expect(m.end[at]).toBe(r.end[firstCommitted]);
    expect((r.end[firstCommitted] as number) - (r.computeEnd[firstCommitted] as number)).toBeCloseTo(120, 6);
  });

  it("puts every idle wait and per-replica discard on its replica, and none of the job-wide ones", () => {
    const w = replicaRoundWork(r);
    const own = (s: RoundIntervals["idle"]) => Array.from(s.replica).filter((x) => x >= 0).length;
    expect(w.replica.length).toBe(own(r.idle) + own(r.discarded));
    expect(w.kind.filter((k) => k === 1).length).toBe(own(r.idle));
    for (let i = 0; i < w.replica.length; i++) {
      expect(w.replica[i]).toBeGreaterThanOrEqual(0);
      expect(w.replica[i]).toBeLessThan(scenario.cluster.replicas);
      expect(w.end[i]).toBeGreaterThan(w.start[i] as number);
      if (i > 0) expect(w.start[i]).toBeGreaterThanOrEqual(w.start[i - 1] as number);
    }
  });

  it("names the round under the pointer: its steps, its sync, its participants and outcome", () => {
    const k = Array.from(r.outcome).indexOf(RoundOutcome.discarded);
    const mid = ((r.start[k] as number) + (r.computeEnd[k] as number)) / 2;
    expect(roundAt(r, mid, horizon)).toBe(k);
    const lines = roundLines(r, k);
    expect(lines[0]).toBe(`discarded: every participant's steps lost, ${r.participants[k]} participants`);
    expect(lines[1]).toMatch(/^inner steps day /);
    // Before the first round there is none.
    expect(roundAt(r, -1, horizon)).toBe(-1);
  });
});
