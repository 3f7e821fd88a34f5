/**
 * "Use this q" (live training's DiLoCo mode): the Cluster scenario's `diloco.stepEquivalence`
 * set to the q measured, validated as any edit (a q the field refuses changes nothing and says
 * why), as one history entry so Back undoes it.
 */
import { parseScenario, type Scenario, ScenarioError, withFieldValue } from "../sim/scenario/index.ts";
import { asHistoryEntry } from "./address.ts";
import { DILOCO_POLICY, dilocoRuns } from "./outerSyncToCluster.ts";
import { appStore } from "./store.ts";

/** q as written: to the two decimals the view shows. */
export function writtenQ(q: number): number {
  return Math.round(q * 100) / 100;
}

/**
 * The scenario with `diloco.stepEquivalence` = q and, where the build runs DiLoCo, DiLoCo among
 * its strategies (a strategy's knobs show only while it is selected, and q acts only on its
 * runs); throws ScenarioError naming the field and its range.
 */
export function withStepEquivalence(s: Scenario, q: number, addDiloco = dilocoRuns()): Scenario {
  const edited = withFieldValue(s, "diloco", "stepEquivalence", writtenQ(q));
  const shown: readonly string[] = edited.policies;
  const policies = !addDiloco || shown.includes(DILOCO_POLICY) ? shown : [...shown, DILOCO_POLICY];
  return parseScenario({ ...edited, policies });
}

/** Why q cannot be written into `s`, or null. */
export function stepEquivalenceProblem(s: Scenario, q: number): string | null {
  try {
    withStepEquivalence(s, q);
    return null;
  } catch (e) {
    if (e instanceof ScenarioError) return `The Cluster scenario takes no such q: ${e.message}`;
    throw e;
  }
}

/** Writes q into the scenario on screen as one edit; says what changed (or why nothing did). */
export function applyStepEquivalence(q: number): string {
  const { scenario, setScenario } = appStore.getState();
  const problem = stepEquivalenceProblem(scenario, q);
  if (problem) return problem;
  const was = scenario.diloco.stepEquivalence;
  const next = withStepEquivalence(scenario, q);
  asHistoryEntry(() => setScenario(next));
  return `The Cluster scenario's step equivalence (diloco.stepEquivalence) is now ${next.diloco.stepEquivalence} (was ${was}); Back undoes it.`;
}
