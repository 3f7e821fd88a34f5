/** The checks between fields that a schema of single fields cannot state (docs/model.md §1, §3, §5). */
import { policiesAllowed } from "../policies/policyKeys.ts";
import { fmt } from "./format.ts";
import { logProblems } from "./logChecks.ts";
import { expectedReplicaRounds } from "./roundWork.ts";
import { MAX_EXPECTED_FAILURES, type Scenario } from "./types.ts";

/** Checks that hold between fields; each message names the fields and what would be allowed. */
export function consistencyProblems(s: Scenario): string[] {
  const problems: string[] = [];
  s.policies.forEach((p, i) => {
    if (s.policies.indexOf(p) < i)
      problems.push(`policies[${i}]: got "${p}" a second time; must be ${policiesAllowed()}`);
  });
  const { gpus, gpusPerHost, replicas, hostsPerRack } = s.cluster;
  if (gpus % gpusPerHost !== 0) {
    problems.push(
      `cluster.gpus: ${fmt(gpus)} GPUs do not split into hosts of ${gpusPerHost}; must be a multiple of cluster.gpusPerHost`,
    );
    return problems;
  }
  const hosts = gpus / gpusPerHost;
  if (replicas > hosts) {
    problems.push(
      `cluster.replicas: got ${fmt(replicas)}; must be at most the number of hosts (${fmt(hosts)})`,
    );
  } else if (hosts % replicas !== 0) {
    problems.push(
      `cluster.replicas: ${fmt(hosts)} hosts do not split into ${fmt(replicas)} equal replicas; must divide the host count`,
    );
  }
  if (hostsPerRack > hosts) {
    problems.push(
      `cluster.hostsPerRack: got ${fmt(hostsPerRack)}; must be at most the number of hosts (${fmt(hosts)})`,
    );
  } else if (hosts % hostsPerRack !== 0) {
    problems.push(
      `cluster.hostsPerRack: ${fmt(hosts)} hosts do not split into racks of ${fmt(hostsPerRack)}; must divide the host count`,
    );
  }
  if (s.ft.minReplicas > replicas) {
    problems.push(
      `ft.minReplicas: got ${fmt(s.ft.minReplicas)}; must be an integer in [1, ${fmt(replicas)}] (cluster.replicas)`,
    );
  }
  const { causes, hangFraction } = s.failures;
  causes.forEach((c, i) => {
    if (c.scope === "job" && c.newHost)
      problems.push(
        `failures.causes[${i}].newHost: got true; must be false for a job-scope cause (it strikes no host)`,
      );
  });
  if (causes.length > 0 && hangFraction !== 0) {
    problems.push(
      `failures.hangFraction: got ${fmt(hangFraction)}; must be 0 when failures.causes is not empty (each cause says whether it hangs)`,
    );
  }
  const { syncEvery, overlapSteps } = s.diloco;
  if (overlapSteps >= syncEvery) {
    problems.push(
      `diloco.overlapSteps: got ${fmt(overlapSteps)}; must be an integer in [0, ${fmt(syncEvery - 1)}] (below diloco.syncEvery, ${fmt(syncEvery)}: a round's sync overlaps at most H − 1 of the next round's steps)`,
    );
  }
  const replicaRounds = expectedReplicaRounds(s);
  if (replicaRounds > MAX_EXPECTED_FAILURES) {
    problems.push(
      `diloco.syncEvery: ${fmt(replicaRounds)} expected replica-rounds (rounds of ${fmt(syncEvery)} steps of ${fmt(s.training.stepSeconds)} s over ${fmt(s.training.days)} days, × ${fmt(s.cluster.replicas)} replicas) is too many to simulate (at most ${fmt(MAX_EXPECTED_FAILURES)}); raise diloco.syncEvery or training.stepSeconds, or shorten training.days`,
    );
  }
  problems.push(...logProblems(s, hosts));
  const expected = hosts * s.failures.perHostDay * s.training.days;
  if (expected > MAX_EXPECTED_FAILURES) {
    const maxRate = MAX_EXPECTED_FAILURES / (hosts * s.training.days);
    problems.push(
      `failures.perHostDay: ${fmt(expected)} expected failures over ${fmt(s.training.days)} days is too many to simulate; with ${fmt(hosts)} hosts the rate must be at most ${fmt(maxRate)}`,
    );
  } else if (expected * hostsPerEvent(s) > MAX_EXPECTED_FAILURES) {
    // A rack failure strikes each of its hosts: bound the host strikes, not only the events.
    problems.push(
      `cluster.hostsPerRack: ${fmt(expected * hostsPerEvent(s))} expected host strikes over ${fmt(s.training.days)} days is too many to simulate (at most ${fmt(MAX_EXPECTED_FAILURES)}); lower the rack size, the rack causes' share or failures.perHostDay`,
    );
  }
  // §6: slow episodes cost a run what failures do, so both count against the same bound.
  const episodes = hosts * s.slow.perHostDay * s.training.days;
  if (episodes > 0 && expected <= MAX_EXPECTED_FAILURES && expected + episodes > MAX_EXPECTED_FAILURES) {
    const maxRate = (MAX_EXPECTED_FAILURES - expected) / (hosts * s.training.days);
    problems.push(
      `slow.perHostDay: ${fmt(episodes)} expected slow episodes (and ${fmt(Math.round(expected))} failures) over ${fmt(s.training.days)} days is too many to simulate (at most ${fmt(MAX_EXPECTED_FAILURES)} in all); with ${fmt(hosts)} hosts the rate must be at most ${fmt(maxRate)}`,
    );
  }
  return problems;
}

/** The mean number of hosts one failure event strikes (1 without causes). */
export function hostsPerEvent(s: Scenario): number {
  const { causes } = s.failures;
  if (causes.length === 0) return 1;
  let total = 0;
  let hosts = 0;
  for (const c of causes) {
    total += c.share;
    hosts += c.share * (c.scope === "host" ? 1 : c.scope === "rack" ? s.cluster.hostsPerRack : 0);
  }
  return hosts / total;
}
