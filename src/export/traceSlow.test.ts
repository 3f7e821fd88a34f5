/**
 * Slow episodes and evictions in the Perfetto export (docs/model.md §6), read back from the file:
 * each episode a slice of the "Slow hosts" process at its time, for its host, on threads where no
 * two overlap; each eviction an instant there and a failure named so on the replicas; the count of
 * slow hosts a counter. A run without episodes has no such process.
 */
import { describe, expect, it } from "vitest";
import { runScenario } from "../sim/engine.ts";
import { derived, parseScenario, type ScenarioInput } from "../sim/scenario/index.ts";
import { evictionsIn, slowCount } from "../sim/slow/slowCount.ts";
import type { SlowEpisodes } from "../sim/slow/slowTypes.ts";
import type { Trace } from "../sim/types.ts";
import { clusterTraceJson } from "./clusterTrace.ts";
import { type TraceEvent, us } from "./traceEvents.ts";
import { slowPid } from "./traceSlow.ts";

function exported(over: ScenarioInput, window?: [number, number]) {
  const s = parseScenario({
    cluster: { gpus: 512, gpusPerHost: 8, replicas: 8 },
    training: { days: 1 },
    failures: { perHostDay: 0.05 },
    seed: 9,
    ...over,
  });
  const trace = runScenario(s, { record: true }).trace as Trace;
  const events = (JSON.parse(clusterTraceJson(s, trace, window)) as { traceEvents: TraceEvent[] })
    .traceEvents;
  return { s, trace, events, H: derived(s).horizonSeconds };
}

const SLOW = { perHostDay: 0.3, medianMinutes: 30, sigma: 1, factor: 2, evictAfterMinutes: 25 };

describe("slow hosts in the Perfetto export", () => {
  const { s, trace, events, H } = exported({ slow: SLOW });
  const ep = trace.slow as SlowEpisodes;
  const pid = slowPid(1, s.cluster.replicas);

  it("a process of their own, after every policy's", () => {
    const procs = events.filter((e) => e.name === "process_name");
    expect(procs.at(-1)).toMatchObject({ pid, args: { name: "Slow hosts" } });
  });

  it("each episode a slice at its time for its host, no two overlapping on a thread", () => {
    const slices = events.filter((e) => e.pid === pid && e.ph === "X");
    expect(slices).toHaveLength(ep.count);
    slices.forEach((e, k) => {
      expect(e.args?.episode).toBe(k);
      expect(e.args?.host).toBe(ep.host[k]);
      expect(e.name).toBe(`slow: host ${ep.host[k]}`);
      expect(e.ts).toBe(us(ep.start[k] as number));
      expect(e.ts + (e.dur ?? 0)).toBe(us(Math.min(ep.end[k] as number, H)));
    });
    const byThread = new Map<number, TraceEvent[]>();
    for (const e of slices) byThread.set(e.tid, [...(byThread.get(e.tid) ?? []), e]);
    for (const list of byThread.values())
      for (let i = 1; i < list.length; i++)
        expect((list[i] as TraceEvent).ts).toBeGreaterThanOrEqual(
          (list[i - 1] as TraceEvent).ts + ((list[i - 1] as TraceEvent).dur ?? 0),
        );
    // As many threads as hosts were ever slow at once, each named.
    expect(byThread.size).toBe(slowCount(ep, H).max);
    const named = events.filter((e) => e.pid === pid && e.name === "thread_name").map((e) => e.tid);
    expect(named.sort()).toEqual([...byThread.keys()].sort());
  });

  it("each eviction an instant on its episode's thread, and a failure named an eviction on the replicas", () => {
    const ev = evictionsIn(ep, H);
    expect(ev.length).toBeGreaterThan(0);
    const instants = events.filter((e) => e.pid === pid && e.ph === "i");
    expect(instants.map((e) => e.args?.episode)).toEqual(Array.from(ev));
    expect(instants.every((e) => e.name === "eviction (slow host)")).toBe(true);
    const evictedRows = trace.failures.evicted.filter((v) => v === 1).length;
    expect(evictedRows).toBe(ev.length);
    // Each eviction failure is marked on the synchronous job and on the evicted host's replica.
    const marks = events.filter((e) => e.ph === "i" && e.cat === "failure" && e.args?.class === "eviction");
    expect(marks).toHaveLength(2 * evictedRows);
    expect(marks.every((e) => e.name === "eviction (slow host)")).toBe(true);
  });

  it("a counter of how many hosts are slow at once", () => {
    const c = slowCount(ep, H);
    const counter = events.filter((e) => e.pid === pid && e.ph === "C");
    expect(counter.map((e) => e.args?.hosts)).toEqual(Array.from(c.n.subarray(1)));
    expect(Math.max(...counter.map((e) => Number(e.args?.hosts)))).toBe(c.max);
  });

  it("a window keeps only what happens inside it", () => {
    const w: [number, number] = [6 * 3600, 12 * 3600];
    const part = exported({ slow: SLOW }, w).events.filter((e) => e.pid === pid && e.ph !== "M");
    expect(part.length).toBeGreaterThan(0);
    expect(part.every((e) => e.ts >= us(w[0]) && e.ts + (e.dur ?? 0) <= us(w[1]))).toBe(true);
  });

  it("a run without slow episodes has no slow process", () => {
    const plain = exported({});
    expect(plain.events.some((e) => e.name === "process_name" && e.args?.name === "Slow hosts")).toBe(false);
    expect(plain.events.some((e) => e.cat === "slow" || e.args?.class === "eviction")).toBe(false);
  });
});
