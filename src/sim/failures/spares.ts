/**
 * A policy's spare-host pool (docs/model.md §3 "Spare hosts"). Its history depends only on the
 * failures and the policy's detection delays, never on the policy's recovery, so it runs as a
 * pass of its own before the policy: the policy then only asks when the requests made by some
 * instant are served.
 *
 * A failure with newHost breaks each struck slot that is not already waiting for a replacement;
 * each broken host is repaired `repairHours` after the failure and joins the pool. At the
 * failure's detection end each slot it broke asks for a replacement; requests are served first
 * come, first served (ties: lower host index) as soon as the pool holds a host. At one instant:
 * repairs join, pending requests are served, then failures strike.
 *
 * Because service is first come, first served, requests are served in the order they are made:
 * the list below, in that order, has non-decreasing served times.
 */
import { type Column, f64, i32 } from "../columns.ts";
import { IndexedMinHeap } from "../indexedHeap.ts";
import { hashedNormal, streamSeed } from "../rng.ts";
import { derived } from "../scenario/derived.ts";
import type { Scenario } from "../scenario/index.ts";
import type { SparePoolHistory } from "../types.ts";
import type { FailureTrace } from "./failureTrace.ts";

/** Per-slot state and queues, kept between runs so a Monte Carlo does not reallocate them. */
class PoolState {
  /** Request time of a slot's pending request (key of `scheduled`). */
  readonly requestAt: Float64Array;
  /** 1 while the slot waits for its replacement (from its failure until served). */
  readonly waiting: Uint8Array;
  readonly scheduled: IndexedMinHeap;
  /** Requests made and not yet served, in the order made (a ring of slots). */
  readonly pending: Int32Array;

  constructor(readonly capacity: number) {
    this.requestAt = new Float64Array(capacity);
    this.waiting = new Uint8Array(capacity);
    this.scheduled = new IndexedMinHeap(capacity, this.requestAt);
    this.pending = new Int32Array(capacity);
  }
}

let shared: PoolState | null = null;

function poolState(hosts: number): PoolState {
  if (shared === null || shared.capacity < hosts) shared = new PoolState(hosts);
  shared.waiting.fill(0, 0, hosts);
  shared.scheduled.clear();
  return shared;
}

export interface SpareRequests {
  /** Requests in the order made (= served); made before the horizon. */
  count: number;
  host: Int32Array;
  madeAt: Float64Array;
  /** +Infinity when not served before the horizon. */
  servedAt: Float64Array;
  /** Time the pool held no spare. */
  emptySeconds: number;
  history?: SparePoolHistory;
}

/**
 * Run the pool for one policy: `detect` is that policy's detection delay per failure. Returns
 * null for an unlimited pool (every request served at once: nothing ever waits).
 */
export function runSparePool(
  s: Scenario,
  trace: FailureTrace,
  detect: Float64Array,
  record: boolean,
): SpareRequests | null {
  if (s.spares.pool === "unlimited") return null;
  const { hosts, horizonSeconds: H } = derived(s);
  const repair = s.spares.repairHours * 3600;
  // §5: lognormal repairs, e^(σZ) per broken host, Z a pure function of (seed, failure, host)
  // so every policy's pool meets the same repairs; fixed repairs keep version 3's FIFO below.
  const sigma = s.spares.repairLaw === "lognormal" ? s.spares.repairSigma : 0;
  const repairKey = streamSeed(trace.seed, REPAIR_STREAM);
  const st = poolState(hosts);
  const { requestAt, waiting, scheduled, pending } = st;
  const outHost = i32();
  const outMade = f64();
  const outServed = f64();
  const histT = record ? f64() : null;
  const histAvail = record ? i32() : null;
  const histWait = record ? i32() : null;
  // Fixed repairs come in failure order (a constant delay after each failure): a FIFO of (time,
  // hosts). Lognormal ones are inserted in time order (insertRepair).
  const repairAt = f64();
  const repairCount = i32();
  let repairHead = 0;
  let pendHead = 0;
  let pendLen = 0;
  let available = s.spares.hosts;
  let emptySince = available === 0 ? 0 : -1;
  let empty = 0;
  const n = trace.count;
  let i = 0;

  const note = (t: number) => {
    if (available === 0 && emptySince < 0) emptySince = t;
    if (available > 0 && emptySince >= 0) {
      empty += t - emptySince;
      emptySince = -1;
    }
    if (histT && histAvail && histWait) {
      const last = histT.length - 1;
      if (last >= 0 && histT.get(last) === t) {
        histAvail.set(last, available);
        histWait.set(last, pendLen);
      } else if (last < 0 || histAvail.get(last) !== available || histWait.get(last) !== pendLen) {
        histT.push(t);
        histAvail.push(available);
        histWait.push(pendLen);
      }
    }
  };
  note(0);

  for (;;) {
    const nextRepair = repairHead < repairAt.length ? repairAt.get(repairHead) : H;
    const nextRequest = scheduled.size > 0 ? requestAt[scheduled.top()]! : H;
    const nextFailure = i < n ? trace.time[i]! : H;
    const t = Math.min(nextRepair, nextRequest, nextFailure);
    if (t >= H) break;
    // 1. repaired hosts join the pool.
    while (repairHead < repairAt.length && repairAt.get(repairHead) <= t)
      available += repairCount.get(repairHead++);
    // 2. requests due now are made (in request-time, then host order) ...
    while (scheduled.size > 0 && requestAt[scheduled.top()]! <= t) {
      const h = scheduled.top();
      scheduled.remove(h);
      pending[(pendHead + pendLen++) % hosts] = h;
      outHost.push(h);
      outMade.push(requestAt[h]!);
      outServed.push(Number.POSITIVE_INFINITY);
    }
    // ... and served, first come first served, while the pool holds a host.
    while (available > 0 && pendLen > 0) {
      const h = pending[pendHead]!;
      pendHead = (pendHead + 1) % hosts;
      pendLen--;
      available--;
      waiting[h] = 0;
      outServed.set(outHost.length - pendLen - 1, t);
    }
    note(t);
    // 3. then the failures of this instant strike.
    if (nextFailure === t) {
      if (trace.newHost[i]) {
        const first = trace.host[i]!;
        const end = first + trace.hostCount[i]!;
        let broke = 0;
        for (let h = first; h < end; h++) {
          if (waiting[h]) continue; // still waiting: no new request
          waiting[h] = 1;
          requestAt[h] = t + detect[i]!;
          scheduled.upsert(h);
          if (sigma > 0)
            insertRepair(
              repairAt,
              repairCount,
              repairHead,
              t + repair * Math.exp(sigma * hashedNormal(repairKey, i, h)),
            );
          else broke++;
        }
        if (broke > 0) {
          repairAt.push(t + repair);
          repairCount.push(broke);
        }
      }
      i++;
    }
  }
  if (emptySince >= 0) empty += H - emptySince;
  const result: SpareRequests = {
    count: outHost.length,
    host: outHost.toArray(),
    madeAt: outMade.toArray(),
    servedAt: outServed.toArray(),
    emptySeconds: empty,
  };
  if (histT && histAvail && histWait)
    result.history = { t: histT.toArray(), available: histAvail.toArray(), waiting: histWait.toArray() };
  return result;
}

/** §5's lognormal repairs' stream (rng.ts streamSeed). */
const REPAIR_STREAM = 2;

/**
 * One lognormal repair into the queue of repairs not yet joined (from `head`), kept in time
 * order; a repair at the same time as others goes after them. The queue is short (the repairs
 * under way), so a step back from the end is cheap.
 */
function insertRepair(at: Column<Float64Array>, count: Column<Int32Array>, head: number, t: number): void {
  let k = at.push(t);
  count.push(1);
  while (k > head && at.get(k - 1) > t) {
    at.set(k, at.get(k - 1));
    count.set(k, count.get(k - 1));
    k--;
  }
  at.set(k, t);
  count.set(k, 1);
}

/** When every request made at or before `at` is served (−Infinity when none was made). */
export function servedBy(r: SpareRequests, at: number): number {
  // The last request made at or before `at`: its served time is the latest (FIFO service).
  let lo = 0;
  let hi = r.count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (r.madeAt[mid]! <= at) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 ? r.servedAt[lo - 1]! : Number.NEGATIVE_INFINITY;
}
