/**
 * Slow episodes (docs/model.md §6): hosts that stay alive but slow, drawn from a random stream of
 * their own (so `slow.perHostDay` = 0 draws nothing and leaves every failure where it was), and
 * the two views of them the policies read:
 * - whole-job policies run at 1/factor while any host is slow: the union of the episodes, as
 *   sorted disjoint intervals walked by a SlowClock;
 * - FT-HSDP runs at 1/factor while a healthy replica holds a slow host: per-replica start/end
 *   events in time order, which it folds into its event loop.
 * An eviction (`evictAfterMinutes`) ends its episode and becomes a failure row of the trace
 * (host scope, new host, found at once): withEvictions merges those rows in time order.
 */

import { type FailureTrace, Layout } from "../failures/failureTrace.ts";
import { Rng } from "../rng.ts";
import { derived } from "../scenario/derived.ts";
import type { Scenario } from "../scenario/types.ts";
import { type ClosedFormValue, ScopeCode } from "../types.ts";
import { SlowClock } from "./slowClock.ts";
import type { SlowEpisodes } from "./slowTypes.ts";

export type { SlowEpisodes };

/** What keeps the episodes' stream apart from the failures' (same seed, different draws). */
const STREAM = 0x51_0e_5e_ed;

/** Expected episodes over the horizon (the run's cost counts them as it counts failures). */
export function expectedSlowEpisodes(s: Scenario): number {
  const { hosts, horizonSeconds } = derived(s);
  return (hosts * s.slow.perHostDay * horizonSeconds) / 86_400;
}

/** Mean episode length in seconds: median · e^(σ²/2). */
export function meanEpisodeSeconds(s: Scenario): number {
  return s.slow.medianMinutes * 60 * Math.exp((s.slow.sigma * s.slow.sigma) / 2);
}

/**
 * The uniforms the episodes are drawn from, in batches (Rng.fill), kept from run to run: four an
 * episode (its gap, its host, the two of its length), so a batch holds whole episodes.
 */
const BATCH = 4 * 256;
const uniforms = new Float64Array(BATCH);

/**
 * The columns the episodes are drawn into, kept from run to run and grown when a run needs more,
 * as the failure trace's are (failureTrace.ts's `reused`): four episode-sized typed arrays drawn
 * and then sliced for every seed were most of the garbage a run with slow hosts made.
 */
const columns = {
  start: new Float64Array(0),
  end: new Float64Array(0),
  host: new Int32Array(0),
  evicted: new Uint8Array(0),
};

function ensureColumns(capacity: number): void {
  if (columns.start.length >= capacity) return;
  const grown = {
    start: grow(columns.start, new Float64Array(capacity)),
    end: grow(columns.end, new Float64Array(capacity)),
    host: grow(columns.host, new Int32Array(capacity)),
    evicted: grow(columns.evicted, new Uint8Array(capacity)),
  };
  Object.assign(columns, grown);
}

/**
 * The episodes of a run: Poisson starts over the fleet (rate hosts × perHostDay per day), each on
 * a host drawn uniformly, its length lognormal (median · e^(σZ), Z by Box–Muller from two
 * uniforms). Per episode: the gap, the host, then the two uniforms of its length. Null when there
 * are none to draw. The uniforms are drawn ahead in batches and taken in order (the same numbers
 * as drawing each when needed), and the columns are typed from the start: drawn one by one into
 * arrays of objects, this was a sixth of a run with slow hosts.
 *
 * reuse = true (a Monte Carlo run, which keeps nothing of its trace): the result's columns are
 * the shared ones above, valid until the next call, and longer than `count`; every reader stops
 * at `count`. Otherwise they are copies of exactly `count` rows, the caller's to keep.
 */
export function drawSlowEpisodes(s: Scenario, seed: number, reuse = false): SlowEpisodes | null {
  const { perHostDay, medianMinutes, sigma, factor, evictAfterMinutes } = s.slow;
  if (perHostDay <= 0) return null;
  const { hosts, horizonSeconds: H } = derived(s);
  const mu = (hosts * perHostDay) / 86_400;
  // Mean + 8σ: growing is a rare fallback, not the normal path.
  const expected = mu * H;
  let capacity = Math.ceil(expected + 8 * Math.sqrt(expected)) + 16;
  ensureColumns(capacity);
  capacity = columns.start.length;
  let { start, end, host, evicted } = columns;
  const rng = new Rng((seed ^ STREAM) >>> 0);
  const u = uniforms;
  let k = BATCH;
  const median = medianMinutes * 60;
  const evictAfter = evictAfterMinutes * 60;
  let n = 0;
  let t = 0;
  for (;;) {
    if (k === BATCH) {
      rng.fill(u, 0, BATCH);
      k = 0;
    }
    t += -Math.log(1 - u[k]!) / mu;
    if (t >= H) break;
    const h = Math.floor(u[k + 1]! * hosts);
    const u1 = u[k + 2]!;
    const u2 = u[k + 3]!;
    k += 4;
    const z = Math.sqrt(-2 * Math.log(1 - u1)) * Math.cos(2 * Math.PI * u2);
    const length = sigma > 0 ? median * Math.exp(sigma * z) : median;
    // Still slow evictAfter into the episode: evicted then, which ends it.
    const evict = evictAfter > 0 && length > evictAfter;
    if (n === capacity) {
      capacity *= 2;
      ensureColumns(capacity);
      ({ start, end, host, evicted } = columns);
    }
    start[n] = t;
    host[n] = h;
    end[n] = t + (evict ? evictAfter : length);
    evicted[n] = evict ? 1 : 0;
    n++;
  }
  invalidateUnion();
  if (reuse) {
    shared.count = n;
    shared.start = start;
    shared.end = end;
    shared.host = host;
    shared.evicted = evicted;
    shared.factor = factor;
    return shared;
  }
  return {
    count: n,
    start: start.slice(0, n),
    end: end.slice(0, n),
    host: host.slice(0, n),
    evicted: evicted.slice(0, n),
    factor,
  };
}

/** What drawSlowEpisodes(…, reuse = true) returns: one object over the shared columns. */
const shared: SlowEpisodes = {
  count: 0,
  start: columns.start,
  end: columns.end,
  host: columns.host,
  evicted: columns.evicted,
  factor: 1,
};

function grow<T extends Float64Array | Int32Array | Uint8Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/**
 * The trace with each eviction before the horizon as a failure row (host scope, `newHost`, no
 * detection delay under any policy, cause −1, marked `evicted`), merged in time order; a failure
 * and an eviction at the same instant: the failure first. The episodes ride along on the trace.
 */
export function withEvictions(s: Scenario, trace: FailureTrace, ep: SlowEpisodes): FailureTrace {
  const H = derived(s).horizonSeconds;
  const ev: number[] = [];
  for (let e = 0; e < ep.count; e++) if (ep.evicted[e] && ep.end[e]! < H) ev.push(e);
  // No eviction: the same columns (their `evicted` rows are all 0), with the episodes attached.
  if (ev.length === 0) return { ...trace, slow: ep };
  ev.sort((a, b) => ep.end[a]! - ep.end[b]! || a - b);
  const n = trace.count + ev.length;
  const out: FailureTrace = {
    count: n,
    seed: trace.seed,
    time: new Float64Array(n),
    host: new Int32Array(n),
    hostCount: new Int32Array(n),
    replica: new Int32Array(n),
    replicaCount: new Int32Array(n),
    hang: new Uint8Array(n),
    newHost: new Uint8Array(n),
    scope: new Uint8Array(n),
    cause: new Int8Array(n),
    detectSeconds: new Float64Array(n),
    ftDetectSeconds: new Float64Array(n),
    evicted: new Uint8Array(n),
    slow: ep,
  };
  const layout = new Layout(s);
  let i = 0;
  let j = 0;
  for (let row = 0; row < n; row++) {
    if (j >= ev.length || (i < trace.count && trace.time[i]! <= ep.end[ev[j]!]!)) {
      out.time[row] = trace.time[i]!;
      out.host[row] = trace.host[i]!;
      out.hostCount[row] = trace.hostCount[i]!;
      out.replica[row] = trace.replica[i]!;
      out.replicaCount[row] = trace.replicaCount[i]!;
      out.hang[row] = trace.hang[i]!;
      out.newHost[row] = trace.newHost[i]!;
      out.scope[row] = trace.scope[i]!;
      out.cause[row] = trace.cause[i]!;
      out.detectSeconds[row] = trace.detectSeconds[i]!;
      out.ftDetectSeconds[row] = trace.ftDetectSeconds[i]!;
      i++;
    } else {
      const e = ev[j++]!;
      const h = ep.host[e]!;
      out.time[row] = ep.end[e]!;
      out.host[row] = h;
      out.hostCount[row] = 1;
      out.replica[row] = layout.replicaOf(h);
      out.replicaCount[row] = 1;
      out.newHost[row] = 1;
      out.scope[row] = ScopeCode.host;
      out.cause[row] = -1;
      out.evicted[row] = 1;
    }
  }
  return out;
}

/** The union of the episodes, clipped to [0, H): sorted disjoint intervals (when any host is slow). */
export function anySlowIntervals(ep: SlowEpisodes, H: number): { start: Float64Array; end: Float64Array } {
  const n = fillUnion(ep, H);
  return { start: union.start.slice(0, n), end: union.end.slice(0, n) };
}

/**
 * The union's columns, kept from run to run, and whose episodes they hold: every whole-job
 * policy of a run (synchronous, in-memory, hot spare) walks the same union, so it is built once
 * a run, not once a policy. A clock reads them only while its policy runs, before the next run.
 */
const union = {
  start: new Float64Array(0),
  end: new Float64Array(0),
  of: null as SlowEpisodes | null,
  H: 0,
  n: 0,
};

/** drawSlowEpisodes rewrites its shared columns in place: the union held for them is stale. */
function invalidateUnion(): void {
  union.of = null;
}

/** Builds the union of ep's episodes up to H into union's columns (or finds it there); its length. */
function fillUnion(ep: SlowEpisodes, H: number): number {
  if (union.of === ep && union.H === H) return union.n;
  if (union.start.length < ep.count) {
    const cap = Math.max(ep.count, 2 * union.start.length);
    union.start = new Float64Array(cap);
    union.end = new Float64Array(cap);
  }
  const { start, end } = union;
  let n = 0;
  for (let e = 0; e < ep.count; e++) {
    const a = ep.start[e]!;
    const b = Math.min(ep.end[e]!, H);
    if (b <= a) continue;
    if (n > 0 && a <= end[n - 1]!) end[n - 1] = Math.max(end[n - 1]!, b);
    else {
      start[n] = a;
      end[n] = b;
      n++;
    }
  }
  union.of = ep;
  union.H = H;
  union.n = n;
  return n;
}

/** Per-replica slow changes in time order (replicaSlowEvents): count rows are valid. */
export interface ReplicaSlowEvents {
  count: number;
  time: Float64Array;
  replica: Int32Array;
  delta: Int8Array;
}

/**
 * replicaSlowEvents' columns and its heap, kept from run to run and grown when a run needs more
 * (a Monte Carlo of runs with slow hosts allocated ~100 KB a run, a tenth of its time in GC).
 * Only the run under way reads them: FT-HSDP is done with a run's events before the next run.
 */
const events: ReplicaSlowEvents = {
  count: 0,
  time: new Float64Array(0),
  replica: new Int32Array(0),
  delta: new Int8Array(0),
};
let heap = new Int32Array(0);
/** Each episode's replica, found at its start and read back at its end: one division an episode, not two. */
let replicaOfEpisode = new Int32Array(0);

/**
 * Per-replica slow changes in time order, for FT-HSDP: at time[k], replica[k]'s count of slow
 * hosts moves by delta[k] (+1 or −1). Ends come before starts at one instant, ends among
 * themselves by time then index. The result is shared: valid until the next call.
 */
export function replicaSlowEvents(s: Scenario, ep: SlowEpisodes, H: number): ReplicaSlowEvents {
  const layout = new Layout(s);
  let m = 0;
  for (let e = 0; e < ep.count; e++) if (ep.end[e]! < H) m++;
  const count = ep.count + m;
  if (events.time.length < count) {
    const n = Math.max(count, 2 * events.time.length);
    events.time = new Float64Array(n);
    events.replica = new Int32Array(n);
    events.delta = new Int8Array(n);
  }
  if (heap.length < ep.count) {
    heap = new Int32Array(Math.max(ep.count, 2 * heap.length));
    replicaOfEpisode = new Int32Array(heap.length);
  }
  const rep = replicaOfEpisode;
  const { time, replica, delta } = events;
  const end = ep.end;
  const start = ep.start;
  // Starts are in order already; the ends are merged in from a min-heap (by end, then index) of
  // the episodes begun and not yet ended. Few are under way at once, so the heap stays small:
  // a sort of every end cost as much as the run.
  let size = 0;
  let a = 0;
  for (let k = 0; k < count; k++) {
    let e: number;
    if (size > 0 && (a >= ep.count || end[heap[0]!]! <= start[a]!)) {
      e = heap[0]!;
      time[k] = end[e]!;
      delta[k] = -1;
      replica[k] = rep[e]!;
      size = popHeap(heap, size, end);
    } else {
      e = a++;
      time[k] = start[e]!;
      delta[k] = 1;
      const r = layout.replicaOf(ep.host[e]!);
      replica[k] = r;
      rep[e] = r;
      if (end[e]! < H) size = pushHeap(heap, size, e, end);
    }
  }
  events.count = count;
  return events;
}

/** Episode a before b in the heap: the earlier end, then the lower index. */
function before(a: number, b: number, key: Float64Array): boolean {
  return key[a]! < key[b]! || (key[a] === key[b] && a < b);
}

function pushHeap(h: Int32Array, size: number, e: number, key: Float64Array): number {
  let i = size;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!before(e, h[parent]!, key)) break;
    h[i] = h[parent]!;
    i = parent;
  }
  h[i] = e;
  return size + 1;
}

function popHeap(h: Int32Array, size: number, key: Float64Array): number {
  const n = size - 1;
  const last = h[n]!;
  let i = 0;
  for (;;) {
    const l = 2 * i + 1;
    if (l >= n) break;
    const c = l + 1 < n && before(h[l + 1]!, h[l]!, key) ? l + 1 : l;
    if (!before(h[c]!, last, key)) break;
    h[i] = h[c]!;
    i = c;
  }
  h[i] = last;
  return n;
}

/** A whole-job policy's clock over the union of the episodes (null: no episodes, the old path). */
export function wholeJobClock(trace: FailureTrace, H: number): SlowClock | null {
  const ep = trace.slow;
  if (!ep || ep.count === 0) return null;
  const n = fillUnion(ep, H);
  return new SlowClock(union.start.subarray(0, n), union.end.subarray(0, n), ep.factor);
}

/**
 * §6's closed form (no eviction): episodes are an M/G/∞ queue, so a host is slow somewhere a share
 * p = 1 − e^(−μ·E[L]) of the time, and every policy's ETTR is multiplied by 1 − p(1 − 1/f).
 */
export function slowShare(s: Scenario): number {
  const { hosts } = derived(s);
  const mu = (hosts * s.slow.perHostDay) / 86_400;
  return 1 - Math.exp(-mu * meanEpisodeSeconds(s));
}

/** A policy's closed form with slow episodes applied: exact without failures, labelled approximate with them. */
export function withSlowForm(s: Scenario, f: ClosedFormValue): ClosedFormValue {
  if (s.slow.perHostDay <= 0) return f;
  if (s.slow.evictAfterMinutes > 0)
    return { value: null, note: "slow hosts are evicted: §6's form covers episodes without eviction" };
  if (f.value === null) return f;
  const p = slowShare(s);
  const factor = 1 - p * (1 - 1 / s.slow.factor);
  const how =
    s.failures.perHostDay === 0
      ? "exact in the long run (no failures)"
      : "approximate: slowness and failures taken as independent";
  return {
    value: f.value * factor,
    note: `${f.note}, × ${factor.toFixed(4)} for slow hosts (M/G/∞: slow ${(100 * p).toFixed(1)} % of the time; ${how})`,
  };
}
