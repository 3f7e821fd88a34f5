/**
 * Slow episodes in the cluster export (docs/model.md §6): one process, "Slow hosts", after every
 * policy's, with each episode a slice named for its host (on as few threads as keep them from
 * overlapping: a thread per host would be thousands), each eviction an instant at its end, and a
 * counter of how many hosts are slow at once. Absent when the run has no episodes, so an export of
 * a run without them is what it always was.
 */
import { Layout as HostLayout } from "../sim/failures/failureTrace.ts";
import type { Scenario } from "../sim/scenario/index.ts";
import { evictionsIn, slowCount } from "../sim/slow/slowCount.ts";
import type { SlowEpisodes } from "../sim/slow/slowTypes.ts";
import { meta, type TraceEvent, type TraceWindow, threadMeta, us } from "./traceEvents.ts";

/** The slow process's id: the first after every replica-level policy's replicas (10 + M·R). */
export const slowPid = (replicaLevelPolicies: number, R: number): number => 10 + replicaLevelPolicies * R;
/** Its counter's name. */
export const SLOW_COUNTER = "slow hosts";

/**
 * Each episode's thread (0, 1, …): the one that fell free earliest, if it is free at the episode's
 * start, else a new one; so no two episodes on a thread overlap, there are as many threads as
 * hosts were ever slow at once, and the cost is n log(threads) (a min-heap of the threads' ends).
 */
export function episodeThreads(ep: SlowEpisodes): { thread: Int32Array; threads: number } {
  const thread = new Int32Array(ep.count);
  const end: number[] = [];
  const id: number[] = [];
  const swap = (i: number, j: number) => {
    [end[i], end[j]] = [end[j] as number, end[i] as number];
    [id[i], id[j]] = [id[j] as number, id[i] as number];
  };
  const less = (i: number, j: number) =>
    (end[i] as number) < (end[j] as number) || (end[i] === end[j] && (id[i] as number) < (id[j] as number));
  const up = (i: number) => {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!less(i, p)) return;
      swap(i, p);
      i = p;
    }
  };
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < end.length && less(l, m)) m = l;
      if (r < end.length && less(r, m)) m = r;
      if (m === i) return;
      swap(i, m);
      i = m;
    }
  };
  let threads = 0;
  for (let e = 0; e < ep.count; e++) {
    const s = ep.start[e] as number;
    if (end.length > 0 && (end[0] as number) <= s) {
      thread[e] = id[0] as number;
      end[0] = ep.end[e] as number;
      down(0);
    } else {
      thread[e] = threads++;
      end.push(ep.end[e] as number);
      id.push(thread[e] as number);
      up(end.length - 1);
    }
  }
  return { thread, threads };
}

/** The process's and its threads' names. */
export function* slowMeta(pid: number, threads: number, sort: number): Generator<TraceEvent> {
  yield* meta(pid, "Slow hosts", "slow episodes", sort);
  for (let k = 1; k < threads; k++) yield threadMeta(pid, 1 + k, `slow episodes (${k + 1})`);
}

/** Episodes (clipped to the window and the run), evictions inside the window, and the counter. */
export function* slowEvents(
  scenario: Scenario,
  ep: SlowEpisodes,
  pid: number,
  thread: Int32Array,
  horizon: number,
  [from, to]: TraceWindow,
): Generator<TraceEvent> {
  const hosts = new HostLayout(scenario);
  const where = (e: number) => {
    const host = ep.host[e] as number;
    return { host, replica: hosts.replicaOf(host) };
  };
  for (let e = 0; e < ep.count; e++) {
    const a = Math.max(ep.start[e] as number, from);
    const b = Math.min(ep.end[e] as number, to, horizon);
    if (a >= to) break;
    const ts = us(a);
    const dur = us(b) - ts;
    if (dur <= 0) continue;
    const w = where(e);
    const evicted = ep.evicted[e] === 1 && (ep.end[e] as number) < horizon ? 1 : 0;
    yield {
      name: `slow: host ${w.host}`,
      ph: "X",
      pid,
      tid: 1 + (thread[e] as number),
      ts,
      dur,
      cat: "slow",
      args: { episode: e, ...w, factor: ep.factor, evicted },
    };
  }
  for (const e of evictionsIn(ep, horizon)) {
    const t = ep.end[e] as number;
    if (t < from || t > to) continue;
    yield {
      name: "eviction (slow host)",
      ph: "i",
      s: "t",
      pid,
      tid: 1 + (thread[e] as number),
      ts: us(t),
      cat: "eviction",
      args: { episode: e, ...where(e), slow_s: t - (ep.start[e] as number) },
    };
  }
  const c = slowCount(ep, horizon);
  for (let i = 1; i < c.t.length; i++) {
    const t = c.t[i] as number;
    if (t < from || t > to) continue;
    yield { name: SLOW_COUNTER, ph: "C", pid, tid: 0, ts: us(t), args: { hosts: c.n[i] as number } };
  }
}
