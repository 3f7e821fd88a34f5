/**
 * Which strategies the Cluster view compares: the scenario's `policies` (docs/model.md §4), so the
 * choice is in the link. It offers every strategy of the plug-in list (src/sim/policies/pluginList.ts),
 * in its order. A change is the whole scenario validated again, as a knob edit is; a refused one
 * (no strategy left, or more than fit side by side) changes nothing and says why, in the
 * validator's words.
 */

import { useState } from "react";
import { registeredPolicies } from "../../sim/policies/index.ts";
import { MAX_POLICIES, type PolicyKey, policyKeys } from "../../sim/policies/policyKeys.ts";
import { parseScenario, type Scenario, ScenarioError } from "../../sim/scenario/index.ts";
import { appStore, useAppStore } from "../../state/store.ts";
import { policyStyle } from "../policyColour.ts";

/**
 * The selection with `key` turned on or off. Removing keeps the others' order; adding puts the
 * new one before the first selected strategy that comes after it in the registry, so a link's own
 * order is kept and the picker's order otherwise follows the registry (the display order).
 */
export function toggledPolicies(current: readonly PolicyKey[], key: PolicyKey, on: boolean): PolicyKey[] {
  if (!on) return current.filter((k) => k !== key);
  if (current.includes(key)) return [...current];
  const order = policyKeys();
  const rank = order.indexOf(key);
  const at = current.findIndex((k) => order.indexOf(k) > rank);
  return at < 0 ? [...current, key] : [...current.slice(0, at), key, ...current.slice(at)];
}

/** The scenario with that selection, or why it is refused (the validator's words). */
export function withPolicies(s: Scenario, policies: readonly PolicyKey[]): Scenario | string {
  try {
    return parseScenario({ ...s, policies });
  } catch (e) {
    if (e instanceof ScenarioError) return e.problems.join(" ");
    throw e;
  }
}

export function StrategyPicker() {
  const scenario = useAppStore((s) => s.scenario);
  const [refused, setRefused] = useState<string | null>(null);
  const selected = scenario.policies;
  const toggle = (key: PolicyKey, on: boolean) => {
    const next = withPolicies(scenario, toggledPolicies(selected, key, on));
    if (typeof next === "string") {
      setRefused(next);
      return;
    }
    setRefused(null);
    appStore.getState().setScenario(next);
  };
  return (
    <fieldset className="strategy-picker" data-control="cluster.strategies" data-testid="strategy-picker">
      <legend>Strategies compared (1–{MAX_POLICIES})</legend>
      <div className="strategy-options">
        {registeredPolicies().map((p) => {
          const key = p.key;
          const on = selected.includes(key);
          return (
            <label key={key} className="strategy-option" style={policyStyle(key)} title={p.blurb}>
              <input
                type="checkbox"
                checked={on}
                data-testid={`strategy-${key}`}
                onChange={(e) => toggle(key, e.target.checked)}
              />
              <span className="policy-swatch" aria-hidden="true" />
              {p.label}
            </label>
          );
        })}
      </div>
      {refused ? (
        <p className="error-text small" role="alert" data-testid="strategy-refused">
          Not changed: {refused}
        </p>
      ) : null}
    </fieldset>
  );
}
