/**
 * "Use this fit" (§5): the scenario on screen with the fitted failures and spares. The fit
 * describes the failures whole, so every failures field it does not set returns to its default
 * (a Weibull shape left from before would be a claim the log did not make); the spares keep the
 * pool on screen (that is the planned job's) and take the fitted repair law. The cluster stays:
 * that is how a fleet's behaviour is carried to a planned job.
 */
import { DEFAULT_SCENARIO, parseScenario, type Scenario } from "../scenario/index.ts";
import type { FittedScenario } from "./fitScenario.ts";

/** The scenario with the fit applied; throws the scenario's own error when it refuses it. */
export function scenarioWithFit(current: Scenario, fitted: FittedScenario): Scenario {
  const { version: _derived, ...rest } = current;
  return parseScenario({
    ...rest,
    name: fitted.name,
    failures: { ...DEFAULT_SCENARIO.failures, ...fitted.failures },
    spares: { ...current.spares, ...fitted.spares },
  });
}
