/**
 * The reference's reading of docs/model.md §3 "Spare hosts": one pool per policy, fed by the
 * failures alone (strikes, their detection ends under that policy, repairs), never by the
 * recovery going on — so the policies only ask it "what of mine is unserved?" and "is that served yet?".
 */
import type { Knobs } from "./failures.ts";

export interface Request {
  time: number;
  host: number;
}

export interface Pool {
  unlimited: boolean;
  repairSeconds: number;
  /** Spares on the shelf (limited pool). */
  free: number;
  /** Times at which broken hosts come back repaired. */
  repairs: number[];
  /** Detection ends still to come, with the hosts whose requests they will make. */
  detections: { time: number; hosts: number[] }[];
  /** Requests made and not yet served, first come first served (ties: lower host first). */
  queue: Request[];
  /** Slot h waits from the failure that broke its host until its replacement is served. */
  waiting: Set<number>;
}

export function newPool(k: Knobs): Pool {
  return {
    unlimited: k.pool === "unlimited",
    repairSeconds: k.repairHours * 3600,
    free: k.spareHosts,
    repairs: [],
    detections: [],
    queue: [],
    waiting: new Set(),
  };
}

/**
 * A failure at time t breaks the hosts it strikes (when it needs a new host). A slot already
 * waiting adds nothing: it has no host to break and its request is already on its way.
 */
export function strike(
  p: Pool,
  t: number,
  hosts: readonly number[],
  newHost: boolean,
  detectEnd: number,
  /** §5: each host's repair as a multiple of repairHours (lognormal repairs), in hosts' order. */
  repair?: readonly number[],
): void {
  if (!newHost) return;
  const broken = hosts.filter((h) => !p.waiting.has(h));
  hosts.forEach((h, j) => {
    if (!broken.includes(h)) return;
    p.waiting.add(h);
    // An unlimited pool serves every request at once: its repairs would change nothing.
    if (!p.unlimited) p.repairs.push(t + p.repairSeconds * (repair?.[j] ?? 1));
  });
  if (broken.length > 0) p.detections.push({ time: detectEnd, hosts: broken });
}

/**
 * Everything due at or before t, in the spec's order at one instant: repaired hosts join the pool,
 * detection ends make their requests, then requests are served. Returns whether anything changed.
 */
export function settlePool(p: Pool, t: number): boolean {
  let changed = false;
  if (p.repairs.some((r) => r <= t)) {
    p.free += p.repairs.filter((r) => r <= t).length;
    p.repairs = p.repairs.filter((r) => r > t);
    changed = true;
  }
  if (p.detections.some((d) => d.time <= t)) {
    for (const d of p.detections)
      if (d.time <= t) for (const host of d.hosts) p.queue.push({ time: d.time, host });
    p.detections = p.detections.filter((d) => d.time > t);
    p.queue.sort((a, b) => a.time - b.time || a.host - b.host);
    changed = true;
  }
  while (p.queue.length > 0 && (p.unlimited || p.free > 0)) {
    const served = p.queue.shift()!;
    if (!p.unlimited) p.free--;
    p.waiting.delete(served.host);
    changed = true;
  }
  return changed;
}

/** The next instant after t at which the pool changes by itself. */
export function nextPoolEvent(p: Pool): number {
  let next = Number.POSITIVE_INFINITY;
  for (const r of p.repairs) next = Math.min(next, r);
  for (const d of p.detections) next = Math.min(next, d.time);
  return next;
}

/**
 * The requests already made for these hosts and not yet served: what a recovery entering waitSpare
 * waits for (§3 "Rules at the edges": a request made later does not hold it back).
 */
export function unserved(p: Pool, mine: (host: number) => boolean): Request[] {
  return p.queue.filter((r) => mine(r.host));
}

/** Whether every one of these requests has been served. */
export function allServed(p: Pool, requests: readonly Request[]): boolean {
  return requests.every((r) => !p.queue.includes(r));
}

/** §3 poolEmptySeconds: the shelf is empty (an unlimited pool never is). */
export function poolEmpty(p: Pool): boolean {
  return !p.unlimited && p.free === 0;
}
