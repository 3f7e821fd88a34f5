/**
 * §5's lemon slots (`failures.badHosts`): exactly round(share × hosts) slots, drawn per seed
 * from a stream of their own, fail `factor` times as often as the others while the fleet's mean
 * rate stays `perHostDay`. A failure of host scope then picks its host with probability
 * proportional to the host's rate, a rack-scope failure its rack by the sum of its hosts' rates.
 * Badness belongs to the slot, so a replacement in a lemon slot is a lemon too.
 */

import { Rng, streamSeed } from "../rng.ts";
import { derived } from "../scenario/derived.ts";
import type { Scenario } from "../scenario/index.ts";

/** The lemon slots' stream (rng.ts streamSeed). */
const LEMON_STREAM = 1;

export interface LemonPicker {
  /** 1 for a lemon slot, 0 otherwise. */
  bad: Uint8Array;
  /** The host a uniform u in [0, 1) picks (∝ rate). */
  host(u: number): number;
  /** The rack a uniform u in [0, 1) picks (∝ the sum of its hosts' rates). */
  rack(u: number): number;
}

/** The first index whose running sum exceeds x (the sums increase strictly: every rate is > 0). */
function pick(cumulative: Float64Array, x: number): number {
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid]! > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The lemon slots of seed `seed`: a partial Fisher–Yates shuffle of the slots on their own stream. */
export function lemonSlots(hosts: number, share: number, seed: number): Uint8Array {
  const bad = new Uint8Array(hosts);
  const n = Math.round(share * hosts);
  if (n === 0) return bad;
  const order = new Int32Array(hosts);
  for (let h = 0; h < hosts; h++) order[h] = h;
  const rng = new Rng(streamSeed(seed, LEMON_STREAM));
  for (let k = 0; k < n; k++) {
    const j = k + rng.below(hosts - k);
    const chosen = order[j]!;
    order[j] = order[k]!;
    order[k] = chosen;
    bad[chosen] = 1;
  }
  return bad;
}

/** The rate of a good and of a lemon slot, per host-day: good = r / (1 − s + s·f), bad = f · good. */
export function lemonRates(s: Scenario): { good: number; bad: number } {
  const { share, factor } = s.failures.badHosts;
  const good = s.failures.perHostDay / (1 - share + share * factor);
  return { good, bad: factor * good };
}

/** The picker of scenario s under seed `seed`, or null when no slot is a lemon (version 3's uniform draws). */
export function lemonPicker(s: Scenario, seed: number): LemonPicker | null {
  const { hosts, racks } = derived(s);
  const { share, factor } = s.failures.badHosts;
  if (Math.round(share * hosts) === 0) return null;
  const bad = lemonSlots(hosts, share, seed);
  const k = s.cluster.hostsPerRack;
  // Weights in units of a good slot's rate: the picks need only their ratios.
  const byHost = new Float64Array(hosts);
  const byRack = new Float64Array(racks);
  let total = 0;
  for (let h = 0; h < hosts; h++) {
    total += bad[h] ? factor : 1;
    byHost[h] = total;
  }
  let rackTotal = 0;
  for (let r = 0; r < racks; r++) {
    for (let h = r * k; h < (r + 1) * k; h++) rackTotal += bad[h] ? factor : 1;
    byRack[r] = rackTotal;
  }
  return {
    bad,
    host: (u) => pick(byHost, u * total),
    rack: (u) => pick(byRack, u * rackTotal),
  };
}
