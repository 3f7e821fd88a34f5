/**
 * Quantities derived from a scenario. Apart from scenario.ts (which re-exports it) so that the
 * engine imports no schema code: the CLI's Monte Carlo worker threads then load the engine
 * without zod (scripts/sim.mjs bundles them), which halves their start-up.
 */
import type { Scenario } from "./scenario/types.ts";

/** Derived quantities every view and the engine agree on. */
export function derived(s: Scenario) {
  const hosts = s.cluster.gpus / s.cluster.gpusPerHost;
  const lambdaPerSecond = (hosts * s.failures.perHostDay) / 86_400;
  return {
    hosts,
    hostsPerReplica: hosts / s.cluster.replicas,
    racks: hosts / s.cluster.hostsPerRack,
    lambdaPerSecond,
    /** The job's mean time between failures (events), in seconds (Infinity when nothing fails). */
    mtbfSeconds: lambdaPerSecond > 0 ? 1 / lambdaPerSecond : Number.POSITIVE_INFINITY,
    horizonSeconds: s.training.days * 86_400,
    expectedFailures: lambdaPerSecond * s.training.days * 86_400,
    /** §6: expected slow episodes over the horizon (0 without them). */
    expectedSlowEpisodes: hosts * s.slow.perHostDay * s.training.days,
  };
}
