/**
 * Beside "Use this fit", where it was clicked: what it changed, the ETTR of each strategy before
 * and after, read from the runs the cards above show (the one before the click, and the fitted
 * scenario's once it is back). Gone once the scenario on screen is another (Back, an edit).
 */
import { useMemo } from "react";
import { selectedPolicies } from "../../sim/policies/index.ts";
import type { PolicyKey } from "../../sim/policies/policyKeys.ts";
import type { Scenario } from "../../sim/scenario/index.ts";
import type { RunResult } from "../../sim/types.ts";
import { useAppStore } from "../../state/store.ts";
import { pct } from "../format.ts";

export interface AppliedFit {
  /** The scenario "Use this fit" put on screen. */
  scenario: Scenario;
  /** Each strategy's ETTR on screen before it, where a run of the scenario before was shown. */
  before: Partial<Record<PolicyKey, number>>;
}

/** Whether `run` is a run of `s` (the worker's copy of it: equal by value, not the same object). */
export function isRunOf(run: RunResult | null, s: Scenario): run is RunResult {
  return run !== null && (run.scenario === s || JSON.stringify(run.scenario) === JSON.stringify(s));
}

/** The ETTRs of the run on screen, if it is the run of `s`. */
export function ettrsOf(run: RunResult | null, s: Scenario): Partial<Record<PolicyKey, number>> {
  if (!isRunOf(run, s)) return {};
  const out: Partial<Record<PolicyKey, number>> = {};
  for (const key of s.policies) {
    const m = run[key];
    if (m) out[key] = m.ettr;
  }
  return out;
}

export function FitApplied({ applied }: { applied: AppliedFit }) {
  const scenario = useAppStore((s) => s.scenario);
  const run = useAppStore((s) => s.run);
  const current = useMemo(() => isRunOf(run, scenario), [run, scenario]);
  if (scenario !== applied.scenario) return null;
  if (!run || !current)
    return (
      <p className="muted" role="status" data-testid="fit-applied">
        Fit used: running the fitted scenario…
      </p>
    );
  const parts = selectedPolicies(scenario).flatMap(({ key, label }) => {
    const m = run[key];
    if (!m) return [];
    const was = applied.before[key];
    return [`${label} ${pct(m.ettr)}${was === undefined ? "" : ` (was ${pct(was)})`}`];
  });
  return (
    <p role="status" data-testid="fit-applied">
      Fit used. ETTR at seed {scenario.seed}, as in the Results above: {parts.join(", ")}. Back undoes it.
    </p>
  );
}
