/**
 * Edits the knobs panel is holding because the scenario refused them (GPUs not divisible by the
 * replicas, a cause with share 0, …). Each later edit is tried together with them, so changing
 * the other field of a cross-field rule applies both and clears the error; the panel never shows
 * a value the simulation is not using without saying so.
 */
import { createContext, useContext } from "react";
import { parseScenario, type Scenario, ScenarioError, type ScenarioGroup } from "../../sim/scenario/index.ts";
import { appStore } from "../../state/store.ts";

export type Patch = (s: Scenario) => Scenario;

/** The whole scenario with `patch` applied, or the validator's problems. */
function tryPatch(scenario: Scenario, patch: Patch): Scenario | string[] {
  try {
    return parseScenario(patch(scenario));
  } catch (e) {
    if (e instanceof ScenarioError) return e.problems;
    throw e;
  }
}

export class PendingEdits {
  private readonly pending = new Map<string, Patch>();
  private base: Scenario | null = null;

  /** Applies the edit (with those held), or holds it and returns the validator's problems. */
  apply(key: string, patch: Patch): string[] | null {
    const { scenario, setScenario } = appStore.getState();
    // A preset, a link or a sweep point replaced the scenario: what was held no longer applies.
    if (scenario !== this.base) this.pending.clear();
    this.pending.set(key, patch);
    const held = [...this.pending.values()];
    const together = tryPatch(scenario, (s) => held.reduce((acc, p) => p(acc), s));
    if (!Array.isArray(together)) return this.commit(setScenario, together, [...this.pending.keys()]);
    const alone = tryPatch(scenario, patch);
    if (!Array.isArray(alone)) return this.commit(setScenario, alone, [key]);
    this.base = scenario;
    return alone;
  }

  /** Whether an edit under `key` is held (refused, still to be tried with the next edit). */
  holds(key: string): boolean {
    return this.base === appStore.getState().scenario && this.pending.has(key);
  }

  /** Forget a held edit (the person went back to what the simulation uses). */
  drop(key: string): void {
    this.pending.delete(key);
  }

  private commit(set: (s: Scenario) => void, next: Scenario, done: string[]): null {
    for (const k of done) this.pending.delete(k);
    set(next);
    this.base = appStore.getState().scenario;
    return null;
  }
}

export const PendingContext = createContext<PendingEdits | null>(null);

export function usePending(): PendingEdits {
  const p = useContext(PendingContext);
  if (!p) throw new Error("knob outside KnobsPanel");
  return p;
}

export function withField(group: ScenarioGroup, key: string, value: unknown): Patch {
  return (s) => ({ ...s, [group]: { ...s[group], [key]: value } }) as Scenario;
}
