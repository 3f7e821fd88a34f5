/**
 * §5 "Failures = bursts": fault starts within `burstSeconds` of a burst's first start are one
 * failure striking all their hosts (the model's failure event). With the default 0, only starts
 * at the same instant group. A burst does not chain: its window is measured from its first start.
 */
import type { EventLog } from "./types.ts";

export interface Bursts {
  count: number;
  /** The burst's time: its first fault start (seconds). */
  time: Float64Array;
  /** Fault starts first[b] .. first[b + 1] − 1 (in log order) belong to burst b. */
  first: Int32Array;
  /** Distinct hosts each burst strikes. */
  hosts: Int32Array;
}

export function burstsOf(log: EventLog, burstSeconds: number): Bursts {
  const t = log.startSeconds;
  const n = t.length;
  const time: number[] = [];
  const first: number[] = [];
  const hosts: number[] = [];
  const seen = new Set<number>();
  for (let i = 0; i < n; i++) {
    if (time.length === 0 || t[i]! - time[time.length - 1]! > burstSeconds) {
      if (time.length > 0) hosts.push(seen.size);
      seen.clear();
      time.push(t[i]!);
      first.push(i);
    }
    if (log.startHost[i]! >= 0) seen.add(log.startHost[i]!);
  }
  if (time.length > 0) hosts.push(seen.size);
  first.push(n);
  return {
    count: time.length,
    time: Float64Array.from(time),
    first: Int32Array.from(first),
    hosts: Int32Array.from(hosts),
  };
}

/** The gaps between consecutive bursts (seconds; all positive). */
export function burstGaps(b: Bursts): Float64Array {
  const gaps = new Float64Array(Math.max(0, b.count - 1));
  for (let i = 1; i < b.count; i++) gaps[i - 1] = b.time[i]! - b.time[i - 1]!;
  return gaps;
}
