/**
 * Quantities derived from a scenario. Apart from scenario.ts (which re-exports it) so that the
 * engine imports no schema code: the CLI's Monte Carlo worker threads then load the engine
 * without zod (scripts/sim.mjs bundles them), which halves their start-up.
 */
import type { Scenario } from "./types.ts";

/** Derived quantities every view and the engine agree on. */
export function derived(s: Scenario) {
  const hosts = s.cluster.gpus / s.cluster.gpusPerHost;
  const replay = s.failures.arrivals === "log";
  // §5: a replay's rate is its log's (events over the log's window), not perHostDay's.
  const { log } = s.failures;
  const lambdaPerSecond = replay
    ? log.days > 0
      ? log.events.length / (log.days * 86_400)
      : 0
    : (hosts * s.failures.perHostDay) / 86_400;
  return {
    hosts,
    hostsPerReplica: hosts / s.cluster.replicas,
    racks: hosts / s.cluster.hostsPerRack,
    lambdaPerSecond,
    /** The job's mean time between failures (events), in seconds (Infinity when nothing fails). */
    mtbfSeconds: lambdaPerSecond > 0 ? 1 / lambdaPerSecond : Number.POSITIVE_INFINITY,
    horizonSeconds: s.training.days * 86_400,
    /** Drawn: the mean number of failure events over the horizon; a replay: its events before the horizon. */
    expectedFailures: replay
      ? eventsBefore(log.events, s.training.days * 86_400)
      : lambdaPerSecond * s.training.days * 86_400,
    /** §6: expected slow episodes over the horizon (0 without them). */
    expectedSlowEpisodes: hosts * s.slow.perHostDay * s.training.days,
  };
}

/** How many of a log's events (sorted by time) come before t. */
function eventsBefore(events: readonly (readonly number[])[], t: number): number {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((events[mid]![0] as number) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * True when every seed gives the same run: a replay of a log whose repairs draw nothing (fixed,
 * or a pool that never waits). The page then runs it once and shows one value, not a band.
 */
export function replayIsOneRun(s: Scenario): boolean {
  return s.failures.arrivals === "log" && (s.spares.repairLaw === "fixed" || s.spares.pool === "unlimited");
}
