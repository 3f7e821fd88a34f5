/**
 * "Replay the log" (§5): a fitted log's failures as `failures.log` (`{hosts, days, events:
 * [[tSeconds, causeIndex, host, …], …]}`), on the fleet it came from. Each burst is one event at
 * its time from the log's first timestamp, striking its distinct hosts; its cause is its first
 * fault start's label, as an index into the fitted causes (a label merged into "other" points
 * there). Hosts named 0 … H − 1 keep their numbers (a run's own export names them so, and the
 * round trip must strike the same slots); other names are numbered in order of appearance.
 */
import { burstsOf } from "./bursts.ts";
import type { LogFit } from "./fitLog.ts";
import { type EventLog, LogError, SECONDS_PER_DAY } from "./types.ts";

/** The replay log's shape (the engine's `failures.log`). */
export interface FittedReplayLog {
  hosts: number;
  days: number;
  events: number[][];
}

export const MAX_REPLAY_EVENTS = 20_000;
export const MAX_HOSTS_PER_EVENT = 64;

/** Each host name's slot: its number when every name is an integer in [0, H), else its place. */
function slotsOf(names: readonly string[], hosts: number): Int32Array {
  const numbered = names.every((n) => /^(0|[1-9]\d*)$/.test(n) && Number(n) < hosts);
  return Int32Array.from(names, (n, i) => (numbered ? Number(n) : i));
}

export function replayLogFromFit(
  log: EventLog,
  fit: LogFit,
  burstSeconds = 0,
): { log: FittedReplayLog; jobWideLeftOut: number } {
  const bursts = burstsOf(log, burstSeconds);
  if (bursts.count > MAX_REPLAY_EVENTS) {
    throw new LogError(
      `failures.log.events: the log has ${bursts.count.toLocaleString("en-US")} failures; a replay takes at most ${MAX_REPLAY_EVENTS.toLocaleString("en-US")}`,
    );
  }
  const slots = slotsOf(log.hostNames, fit.hosts);
  const labelIndex = log.labelKeys.indexOf(fit.label);
  const values = log.labelValues[labelIndex]!;
  const other = fit.causes.findIndex((c) => c.name === "other");
  const causeOf = values.map((v) => {
    const i = fit.causes.findIndex((c) => c.name === v);
    return i >= 0 ? i : other;
  });
  const first = Math.min(log.startSeconds[0]!, log.endSeconds[0] ?? Number.POSITIVE_INFINITY);
  const events: number[][] = [];
  let jobWideLeftOut = 0;
  for (let b = 0; b < bursts.count; b++) {
    const hosts = new Set<number>();
    for (let i = bursts.first[b]!; i < bursts.first[b + 1]!; i++) {
      const h = log.startHost[i]!;
      if (h >= 0) hosts.add(slots[h]!);
    }
    if (hosts.size === 0) {
      jobWideLeftOut++;
      continue;
    }
    const t = bursts.time[b]! - first;
    const cause = causeOf[log.startLabel[labelIndex]![bursts.first[b]!]!]!;
    const struck = [...hosts].sort((x, y) => x - y);
    // An event strikes at most 64 hosts: a larger burst is several events at one instant.
    for (let at = 0; at < struck.length; at += MAX_HOSTS_PER_EVENT) {
      events.push([t, cause, ...struck.slice(at, at + MAX_HOSTS_PER_EVENT)]);
    }
  }
  // The window must hold the last failure strictly inside it.
  const lastT = events.at(-1)?.[0] ?? 0;
  const days = Math.max(fit.days, (lastT + 1) / SECONDS_PER_DAY);
  return { log: { hosts: fit.hosts, days, events }, jobWideLeftOut };
}
