/**
 * The closed forms a result carries: the shared cross-checks of closedForms.ts plus, under
 * `policies`, each selected policy's own form from its module (SIMULATION.md §4 "Closed forms,
 * version 3"), keyed and ordered as the selection.
 */
import { closedForms, longRun } from "./closedForms.ts";
import { byPolicy, selectedPolicies } from "./policies.ts";
import type { Scenario } from "./scenario.ts";
import type { ClosedForms } from "./types.ts";

export function closedFormsOf(s: Scenario): ClosedForms {
  const base = closedForms(s);
  // Every policy's form is a long-run rate too: "—" below the horizon it holds for.
  base.policies = byPolicy((p) => longRun(s, p.closedForm(s, base)), selectedPolicies(s));
  return base;
}
