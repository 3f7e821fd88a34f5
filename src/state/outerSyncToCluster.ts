/**
 * The One step view's "Use in the Cluster view": the outer sync it computed, as DiLoCo's fields of
 * the Cluster view's scenario (docs/model.md §7: `diloco.syncSeconds`, and the cadence shown,
 * `syncEvery` H and `overlapSteps` τ), with DiLoCo added to the strategies shown where it is not
 * among them and the build can run it, as one edit that Back undoes, and the Cluster view opened
 * on it.
 */
import { isPolicyKey } from "../sim/policies/policyKeys.ts";
import { parseScenario, type Scenario } from "../sim/scenario/index.ts";
import { asHistoryEntry } from "./address.ts";
import { appStore } from "./store.ts";

export interface OuterSyncEdit {
  syncSeconds: number;
  syncEvery: number;
  overlapSteps: number;
}

/** The strategy key DiLoCo runs under in `policies`. */
export const DILOCO_POLICY = "diloco";

/** Whether this build can run DiLoCo (its key is one `policies` may name). */
export function dilocoRuns(): boolean {
  return isPolicyKey(DILOCO_POLICY);
}

/** T as the scenario takes it: six significant digits, what the panel prints. */
export function syncSecondsForScenario(t: number): number {
  return Number(t.toPrecision(6));
}

/**
 * The scenario with the edit applied, DiLoCo added to its strategies where `addDiloco` (where the
 * build can run it); throws the scenario's own error (naming the field) when it refuses it.
 */
export function scenarioWithOuterSync(
  current: Scenario,
  edit: OuterSyncEdit,
  addDiloco = dilocoRuns(),
): Scenario {
  const { version: _derived, ...rest } = current;
  const shown: readonly string[] = rest.policies;
  return parseScenario({
    ...rest,
    policies: !addDiloco || shown.includes(DILOCO_POLICY) ? shown : [...shown, DILOCO_POLICY],
    diloco: { ...rest.diloco, ...edit, syncSeconds: syncSecondsForScenario(edit.syncSeconds) },
  });
}

/** Apply the edit to the app's scenario and open the Cluster view: one history entry. Returns the refusal, or null. */
export function applyOuterSyncToCluster(edit: OuterSyncEdit): string | null {
  let next: Scenario;
  try {
    next = scenarioWithOuterSync(appStore.getState().scenario, edit);
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  asHistoryEntry(() => {
    const { setScenario, setTab } = appStore.getState();
    setScenario(next);
    setTab("cluster");
  });
  return null;
}
