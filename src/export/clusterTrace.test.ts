import { describe, expect, it } from "vitest";
import { derived } from "../sim/scenario.ts";
import { clusterTraceJson, FT_JOB_PID, replicaPid, SYNC_PID, type TraceEvent } from "./clusterTrace.ts";
import { fixtureScenario, fixtureTrace } from "./traceFixture.ts";

const parsed = JSON.parse(clusterTraceJson(fixtureScenario, fixtureTrace())) as { traceEvents: TraceEvent[] };
const events = parsed.traceEvents;
const horizonUs = derived(fixtureScenario).horizonSeconds * 1e6;

function slices(pid: number) {
  return events.filter((e) => e.pid === pid && e.ph === "X").sort((a, b) => a.ts - b.ts);
}

describe("clusterTrace (Perfetto / Trace Event JSON)", () => {
  it("every event has the fields the Trace Event format requires, with integer µs times", () => {
    expect(Array.isArray(events)).toBe(true);
    for (const e of events) {
      expect(typeof e.name).toBe("string");
      expect(["X", "i", "M", "C"]).toContain(e.ph);
      expect(Number.isInteger(e.pid)).toBe(true);
      expect(Number.isInteger(e.tid)).toBe(true);
      expect(Number.isInteger(e.ts)).toBe(true);
      if (e.ph === "X") expect(Number.isInteger(e.dur) && (e.dur ?? 0) > 0).toBe(true);
      if (e.ph === "i") expect(e.s).toBeDefined();
    }
  });

  it("names one process per replica, one for the sync job and one for the FT-HSDP job", () => {
    const names = new Map(events.filter((e) => e.name === "process_name").map((e) => [e.pid, e.args?.name]));
    expect(names.get(SYNC_PID)).toBe("Synchronous job");
    expect(names.get(FT_JOB_PID)).toBe("FT-HSDP job");
    expect(names.get(replicaPid(0))).toBe("FT-HSDP replica 0");
    expect(names.get(replicaPid(1))).toBe("FT-HSDP replica 1");
    // Counters belong to their process, not to a thread.
    const used = new Set(events.filter((e) => e.ph !== "M" && e.ph !== "C").map((e) => `${e.pid}/${e.tid}`));
    const threads = new Set(events.filter((e) => e.name === "thread_name").map((e) => `${e.pid}/${e.tid}`));
    for (const u of used) expect(threads.has(u), u).toBe(true);
  });

  it("each track's slices tile the horizon without gaps or overlaps", () => {
    for (const pid of [SYNC_PID, FT_JOB_PID, replicaPid(0), replicaPid(1)]) {
      const xs = slices(pid);
      expect(xs[0]?.ts).toBe(0);
      for (let i = 1; i < xs.length; i++)
        expect(xs[i]?.ts).toBe((xs[i - 1]?.ts ?? 0) + (xs[i - 1]?.dur ?? 0));
      const last = xs.at(-1);
      expect((last?.ts ?? 0) + (last?.dur ?? 0)).toBe(horizonUs);
    }
  });

  it("shows the states of each job: sync recovery and rollback, replica phases, global stalls", () => {
    const sync = slices(SYNC_PID).map((e) => [e.name, e.ts / 1e6, (e.ts + (e.dur ?? 0)) / 1e6]);
    expect(sync).toContainEqual(["recovering", 600, 1200]);
    expect(sync).toContainEqual(["rolled back (work lost)", 1805, 2000]);
    expect(sync).toContainEqual(["checkpointing", 1800, 1805]);
    const r1 = slices(replicaPid(1)).map((e) => e.name);
    expect(r1).toEqual(["healthy", "down: detect", "down: restart", "rejoining", "healthy"]);
    expect(slices(FT_JOB_PID).filter((e) => e.name === "global stall")).toHaveLength(4);
  });

  it("counts useful training on each job: FT-HSDP's never falls, sync's drops at a rollback", () => {
    const series = (pid: number) =>
      events.filter((e) => e.ph === "C" && e.pid === pid).map((e) => e.args?.hours as number);
    const ft = series(FT_JOB_PID);
    const sync = series(SYNC_PID);
    expect(ft.length).toBeGreaterThan(2);
    for (let i = 1; i < ft.length; i++) expect(ft[i]).toBeGreaterThanOrEqual(ft[i - 1] as number);
    expect(sync.some((v, i) => i > 0 && v < (sync[i - 1] as number))).toBe(true);
  });

  it("is the engine's own output: the checkpoint due at the first failure's instant is lost with 600 s of work (SIMULATION.md's edge rule), which the hand-drawn fixture had as 0", () => {
    const trace = fixtureTrace();
    expect(Array.from(trace.failures.syncLostSeconds)).toEqual([600, 195]);
    const sync = slices(SYNC_PID).map((e) => [e.name, e.ts / 1e6, (e.ts + (e.dur ?? 0)) / 1e6]);
    expect(sync).toContainEqual(["rolled back (work lost)", 0, 600]);
  });

  it("marks each failure as an instant on the sync job and on its replica, with its class", () => {
    const instants = events.filter((e) => e.ph === "i");
    expect(instants).toHaveLength(4);
    const hang = instants.filter((e) => e.args?.class === "hang");
    expect(hang.map((e) => e.pid).sort()).toEqual([SYNC_PID, replicaPid(1)].sort());
    expect(hang[0]?.ts).toBe(2000e6);
    expect(hang[0]?.args?.detect_s).toBe(600);
  });
});
