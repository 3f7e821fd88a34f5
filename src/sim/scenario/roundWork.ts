/**
 * The replica-rounds one run of a semi-synchronous strategy walks (docs/model.md §7): the rounds
 * the horizon holds (a round is at least H·s long) times the replicas, 0 where no strategy that
 * runs in rounds is selected. It counts toward the same bound as failures do: an accepted input's
 * cost is bounded by what the validator checks (a year of 1-step rounds would not be).
 */
import type { Scenario } from "./types.ts";

/** The strategy that runs in rounds: its key is the scenario's `policies` entry. */
const ROUND_STRATEGY = "diloco";

export function expectedReplicaRounds(s: Scenario): number {
  return expectedRounds(s) * s.cluster.replicas;
}

/** The rounds one run holds at most (a round is at least H·s long), 0 without a strategy in rounds. */
export function expectedRounds(s: Scenario): number {
  if (!s.policies.includes(ROUND_STRATEGY)) return 0;
  return Math.ceil((s.training.days * 86_400) / (s.diloco.syncEvery * s.training.stepSeconds));
}
