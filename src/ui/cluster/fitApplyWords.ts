/** What "Use this fit" will change, said before the button: every claim from the fitted fields. */
import type { FittedScenario } from "../../sim/fit/fitScenario.ts";
import type { Scenario } from "../../sim/scenario/index.ts";

const g = (x: number) => Number(x.toPrecision(3)).toLocaleString("en-US", { maximumSignificantDigits: 3 });

export function applyFitWords(fitted: FittedScenario, on: Scenario): string {
  const f = fitted.failures;
  const parts = [
    `a failure rate of ${g(f.perHostDay)} per host-day`,
    f.arrivals === "weibull"
      ? `Weibull arrivals with shape ${g(f.weibullShape ?? 1)}`
      : "random (Poisson) arrivals",
    `${f.causes.length} cause${f.causes.length === 1 ? "" : "s"}, each striking one host`,
  ];
  if (f.badHosts)
    parts.push(`${g(100 * f.badHosts.share)} % lemon hosts failing ${g(f.badHosts.factor)}× as often`);
  if (fitted.spares)
    parts.push(
      `lognormal repairs with a median of ${g(fitted.spares.repairHours)} hours (σ ${g(fitted.spares.repairSigma)})`,
    );
  const cluster = `${on.cluster.gpus.toLocaleString("en-US")} GPUs`;
  return `Use this fit: the scenario on screen gets ${parts.join(", ")}. Its cluster (${cluster}) and everything else stay; Back undoes it.`;
}
