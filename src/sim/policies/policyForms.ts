/**
 * The closed forms a result carries: the shared cross-checks of closedForms.ts plus, under
 * `policies`, each selected policy's own form from its module (docs/model.md §4 "Closed forms,
 * version 3"), keyed and ordered as the selection.
 */
import { closedForms, longRun } from "../closedForms/closedForms.ts";
import type { Scenario } from "../scenario/index.ts";
import { withSlowForm } from "../slow/slowEpisodes.ts";
import type { ClosedForms } from "../types.ts";
import { byPolicy, selectedPolicies } from "./index.ts";

export function closedFormsOf(s: Scenario): ClosedForms {
  const base = closedForms(s);
  // §6: slow episodes scale every policy's form (or say why there is none); every form is a
  // long-run rate too: "—" below the horizon it holds for.
  base.policies = byPolicy((p) => longRun(s, withSlowForm(s, p.closedForm(s, base))), selectedPolicies(s));
  return base;
}
