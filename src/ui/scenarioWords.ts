/**
 * Sentences that describe the scenario on screen, computed from it, so that what the page says
 * and what it shows cannot disagree: with the default checkpoint interval of 0 the
 * synchronous job checkpoints at every step at no cost and rolls nothing back, and no sentence may
 * claim otherwise.
 */
import type { Scenario } from "../sim/scenario/index.ts";
import type { PolicyMetrics, RunResult } from "../sim/types.ts";
import { count, duration } from "./format.ts";

/** What a failure does to the synchronous job's progress: "rolls back to …" or why it does not. */
export function syncRollbackWords(s: Scenario): string {
  const m = s.sync.checkpointMinutes;
  return m > 0
    ? `rolls back to its last checkpoint (one every ${count(m, m % 1 === 0 ? 0 : 1)} min)`
    : "restarts from a checkpoint taken at every step at no cost (checkpoint interval 0), so it rolls nothing back";
}

/** The rolled-back work and checkpoints of one run, as a clause: "lost 3.2 h of training to rollbacks …". */
function lostClause(m: PolicyMetrics): string {
  return `${duration(m.lostWorkSeconds)} of training rolled back and ${count(m.checkpoints)} checkpoint writes`;
}

/**
 * The explainer beside the goodput chart for a run that compares the synchronous job with
 * FT-HSDP (it is about those two): null when the run does not select both.
 */
export function lossExplainerFor(run: RunResult): { question: string; answer: string } | null {
  const sync = run.synchronous as PolicyMetrics | undefined;
  const ft = run.ftHsdp as PolicyMetrics | undefined;
  return sync && ft ? syncLossExplainer(run.scenario, sync, ft) : null;
}

/** The explainer beside the goodput chart: why the synchronous job loses more than its stalls, or that it does not. */
export function syncLossExplainer(
  s: Scenario,
  sync: PolicyMetrics,
  ft: PolicyMetrics,
): { question: string; answer: string } {
  const ftPart =
    ft.lostWorkSeconds > 0
      ? `FT-HSDP rolls back only at a job restart (a job-scope failure), here ${duration(ft.lostWorkSeconds)}; otherwise the healthy replicas hold the current weights and it trains with a replica fewer for a few minutes.`
      : "FT-HSDP rolls nothing back: the healthy replicas hold the current weights, so it only trains with a replica fewer for a few minutes.";
  if (s.sync.checkpointMinutes > 0)
    return {
      question: "Why does the synchronous job lose more than its stall?",
      answer: `A failure also throws away everything trained since the last completed checkpoint (hatched on the timeline; the curve drops), and every checkpoint write stops the job too: in this run, ${lostClause(sync)}. ${ftPart}`,
    };
  return {
    question: "Why does the synchronous job lose only its stalls here?",
    answer: `Its checkpoint interval is 0: a checkpoint at every step at no cost (the paper's arithmetic), so a failure throws no training away and nothing is hatched. Give it a real interval (Synchronous job → checkpoint interval, or the Young/Daly button) and each failure also loses everything trained since the last completed checkpoint, and every write stops the job. ${ftPart}`,
  };
}

/** The failure log's account of lost work, true for the scenario on screen. */
export function failureLogLostWords(s: Scenario): string {
  return s.sync.checkpointMinutes > 0 || s.ft.checkpointMinutes > 0
    ? "lost work is training rolled back to the last checkpoint (hatched in the bars)"
    : "no work is lost: with a checkpoint interval of 0 nothing rolls back";
}
