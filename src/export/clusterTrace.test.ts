import { describe, expect, it } from "vitest";
import { runOnTrace, runScenario } from "../sim/engine.ts";
import { failureTraceOf } from "../sim/failures/failureTrace.ts";
import { derived, parseScenario, type Scenario } from "../sim/scenario/index.ts";
import type { Trace } from "../sim/types.ts";
import { legacyTrace } from "../testing/legacyTrace.ts";
import { fixtureScenario, fixtureTrace } from "../testing/traceFixture.ts";
import { clusterTraceBlob, clusterTraceEvents, clusterTraceJson } from "./clusterTrace.ts";
import { JOB_TID, jobPid, ROLLBACK_TID, replicaPid, STATE_TID, type TraceEvent } from "./traceEvents.ts";

/** The default pair's job processes: the synchronous job first, FT-HSDP's second (display order). */
const SYNC_PID = jobPid(0);
const FT_JOB_PID = jobPid(1);

const exported = (s: Scenario, t: Trace) =>
  (JSON.parse(clusterTraceJson(s, t)) as { traceEvents: TraceEvent[] }).traceEvents;
const events = exported(fixtureScenario, fixtureTrace());
const horizonUs = derived(fixtureScenario).horizonSeconds * 1e6;

/** A thread's complete slices in time order (the state thread by default). */
function slices(pid: number, tid = STATE_TID, from: TraceEvent[] = events) {
  return from.filter((e) => e.pid === pid && e.tid === tid && e.ph === "X").sort((a, b) => a.ts - b.ts);
}

/** [name, start s, end s] of each slice. */
const spans = (xs: TraceEvent[]) => xs.map((e) => [e.name, e.ts / 1e6, (e.ts + (e.dur ?? 0)) / 1e6]);

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

  it("is the engine's own output: the checkpoint due at the first failure's instant is lost with 600 s of work (docs/model.md's edge rule), which the hand-drawn fixture had as 0", () => {
    const trace = fixtureTrace();
    expect(Array.from(legacyTrace(trace).failures.syncLostSeconds)).toEqual([600, 195]);
    const sync = slices(SYNC_PID).map((e) => [e.name, e.ts / 1e6, (e.ts + (e.dur ?? 0)) / 1e6]);
    expect(sync).toContainEqual(["rolled back (work lost)", 0, 600]);
  });

  it("marks each failure as an instant on the sync job and on its replica, with its class", () => {
    // (the fixture's failures each strike one host)
    const instants = events.filter((e) => e.ph === "i");
    expect(instants).toHaveLength(4);
    const hang = instants.filter((e) => e.args?.class === "hang");
    expect(hang.map((e) => e.pid).sort()).toEqual([SYNC_PID, replicaPid(1)].sort());
    expect(hang[0]?.ts).toBe(2000e6);
    expect(hang[0]?.args?.detect_s).toBe(600);
  });
});

describe("clusterTrace, version 2: spare waits and job tracks", () => {
  // The fixture's cluster (4 hosts, 2 replicas, 1 hour) with no spare host (a broken host is back
  // after 0.5 h), FT-HSDP checkpoints every 10 min (5 s write) and a job-scope cause.
  const s = parseScenario({
    ...fixtureScenario,
    failures: {
      perHostDay: 1,
      causes: [
        { name: "GPU", share: 1, scope: "host" },
        { name: "Software bug", share: 1, scope: "job" },
      ],
    },
    ft: { checkpointMinutes: 10, checkpointWriteSeconds: 5 },
    spares: { pool: "limited", hosts: 0, repairHours: 0.5 },
  });
  // A GPU failure at 600 s on host 1 (replica 0); the software bug at 2,500 s.
  const trace = runOnTrace(
    s,
    failureTraceOf(s, [
      { time: 600, host: 1, cause: 0 },
      { time: 2500, cause: 1 },
    ]),
    true,
  ).trace!;
  const ev = exported(s, trace);

  it("names the spare waits: a replica down waiting for a host, the sync job's recovery waiting", () => {
    // Request at 660 s; the broken host is back at 600 + 1,800 = 2,400 s.
    expect(spans(slices(replicaPid(0), STATE_TID, ev))).toContainEqual([
      "down: waiting for a spare host",
      660,
      2400,
    ]);
    expect(spans(slices(SYNC_PID, STATE_TID, ev))).toContainEqual([
      "recovering: waiting for spare hosts",
      660,
      2400,
    ]);
  });

  it("has FT-HSDP's job track: checkpoint writes, the job restart and the rolled-back work", () => {
    const names = new Map(
      ev.filter((e) => e.name === "thread_name").map((e) => [`${e.pid}/${e.tid}`, e.args?.name]),
    );
    expect(names.get(`${FT_JOB_PID}/${JOB_TID}`)).toBe("job restarts · checkpoint writes");
    expect(names.get(`${FT_JOB_PID}/${ROLLBACK_TID}`)).toBe("rolled back (work lost)");
    const job = spans(slices(FT_JOB_PID, JOB_TID, ev));
    expect(job.filter(([n]) => n === "checkpoint write").length).toBeGreaterThan(0);
    // Detect 60 s + sync.restartSeconds 540 s from the software bug.
    expect(job).toContainEqual(["job restart", 2500, 3100]);
    const rolled = spans(slices(FT_JOB_PID, ROLLBACK_TID, ev));
    expect(rolled).toHaveLength(1);
    expect(rolled[0]?.[2]).toBe(2500);
    expect(legacyTrace(trace).failures.ftLostSeconds[1]).toBeGreaterThan(0);
    // Slices on one thread never overlap (Perfetto would nest them wrongly).
    for (const tid of [JOB_TID, ROLLBACK_TID]) {
      const xs = slices(FT_JOB_PID, tid, ev);
      for (let i = 1; i < xs.length; i++)
        expect(xs[i]!.ts).toBeGreaterThanOrEqual(xs[i - 1]!.ts + (xs[i - 1]!.dur ?? 0));
    }
  });

  it("has the synchronous job's restarts, one per failure, named for it, and marks a job failure on the job track", () => {
    const restarts = spans(slices(SYNC_PID, JOB_TID, ev));
    expect(restarts.map(([n]) => n)).toEqual(["job restart #1 (GPU)", "job restart #2 (Software bug)"]);
    // The first (detect 60 s, wait 660–2,400 s, restart) is cut short by the second at 2,500 s.
    expect(restarts[0]).toEqual(["job restart #1 (GPU)", 600, 2500]);
    expect(restarts[1]).toEqual(["job restart #2 (Software bug)", 2500, 3100]);
    const jobFailure = ev.filter((e) => e.ph === "i" && e.args?.scope === "job");
    expect(jobFailure.map((e) => `${e.pid}/${e.tid}`).sort()).toEqual(
      [`${SYNC_PID}/${STATE_TID}`, `${FT_JOB_PID}/${JOB_TID}`].sort(),
    );
    // No instant on a replica that does not exist (a job failure's replica is −1).
    expect(ev.filter((e) => e.ph === "i" && e.pid < SYNC_PID)).toEqual([]);
  });
});

describe("clusterTrace of a long run: bounded cost", () => {
  // The longest accepted run on the headline cluster: a year, ~29,000 failures. Spreading its
  // arrays into push() overflowed the stack ("Maximum call stack size exceeded").
  const year = parseScenario({ training: { days: 365 } });
  const run = runScenario(year, { record: true });
  const trace = run.trace!;

  it("a 365-day run's trace builds, whole, in file order", { timeout: 120_000 }, async () => {
    expect(trace.failures.time.length).toBeGreaterThan(28_000);
    let pauses = 0;
    const built = await clusterTraceBlob(year, trace, null, {
      sliceMs: 20,
      pause: async () => {
        pauses++;
      },
    });
    expect(built).not.toBeNull();
    // Built a slice at a time, not in one task.
    expect(pauses).toBeGreaterThan(10);
    const text = await built!.blob.text();
    expect(built!.bytes).toBe(new TextEncoder().encode(text).length);
    const file = JSON.parse(text) as { traceEvents: TraceEvent[] };
    expect(file.traceEvents).toHaveLength(built!.events);
    expect(file.traceEvents.filter((e) => e.ph === "i" && e.pid === SYNC_PID)).toHaveLength(
      trace.failures.time.length,
    );
  });

  it("a window limits the file to what happens inside it, each track still tiling it", {
    timeout: 120_000,
  }, () => {
    const day = 86_400;
    const from = 100 * day;
    const to = 102 * day;
    const ev = (JSON.parse(clusterTraceJson(year, trace, [from, to])) as { traceEvents: TraceEvent[] })
      .traceEvents;
    const inWindow = Array.from(trace.failures.time).filter((t) => t >= from && t <= to).length;
    expect(ev.filter((e) => e.ph === "i" && e.pid === SYNC_PID)).toHaveLength(inWindow);
    for (const e of ev.filter((x) => x.ph !== "M")) {
      expect(e.ts).toBeGreaterThanOrEqual(from * 1e6);
      expect(e.ts + (e.dur ?? 0)).toBeLessThanOrEqual(to * 1e6);
    }
    for (const pid of [SYNC_PID, FT_JOB_PID, replicaPid(0)]) {
      const xs = slices(pid, STATE_TID, ev);
      expect(xs[0]?.ts).toBe(from * 1e6);
      for (let i = 1; i < xs.length; i++)
        expect(xs[i]?.ts).toBe((xs[i - 1]?.ts ?? 0) + (xs[i - 1]?.dur ?? 0));
      const last = xs.at(-1);
      expect((last?.ts ?? 0) + (last?.dur ?? 0)).toBe(to * 1e6);
    }
    // Two days of a year: about 2/365 of the whole file's events.
    let whole = 0;
    for (const _ of clusterTraceEvents(year, trace)) whole++;
    expect(ev.length).toBeLessThan(whole / 100);
  });

  it("the whole run's file is the same with or without slicing, and a cancelled build gives nothing", async () => {
    const json = clusterTraceJson(fixtureScenario, fixtureTrace());
    const built = await clusterTraceBlob(fixtureScenario, fixtureTrace(), null, { sliceMs: 0 });
    expect(await built!.blob.text()).toBe(json);
    const cancelled = await clusterTraceBlob(fixtureScenario, fixtureTrace(), null, {
      sliceMs: 0,
      isCancelled: () => true,
    });
    expect(cancelled).toBeNull();
  });
});
