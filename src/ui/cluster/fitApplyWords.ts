/** What "Use this fit" will change, said before the button: every claim from the fitted fields. */
import type { LogFit } from "../../sim/fit/fitLog.ts";
import type { FittedScenario } from "../../sim/fit/fitScenario.ts";
import { lognormalMean } from "../../sim/fit/repairs.ts";
import type { Scenario } from "../../sim/scenario/index.ts";

const g = (x: number) => Number(x.toPrecision(3)).toLocaleString("en-US", { maximumSignificantDigits: 3 });

/**
 * The repair law applied against the log's: its median, σ and mean, the log's mean and median,
 * and the maximum-likelihood law's mean (the chart's), so that no mean is hidden.
 */
export function repairLawWords(spares: NonNullable<FittedScenario["spares"]>, fit: LogFit | null): string {
  const mean = lognormalMean(spares.repairHours, spares.repairSigma);
  const applied = `lognormal repairs with a median of ${g(spares.repairHours)} hours and σ ${g(spares.repairSigma)}, so a mean of ${g(mean)} hours`;
  const r = fit?.repairs;
  if (!r) return applied;
  const ml = r.lognormal;
  const best = ml
    ? `; the best-fitting lognormal (median ${g(Math.exp(ml.mu))} hours, σ ${g(ml.sigma)}, the chart's) has a mean of ${g(lognormalMean(Math.exp(ml.mu), ml.sigma))} hours`
    : "";
  return `${applied}, as the log's (median ${g(r.medianHours)} hours, mean ${g(r.meanHours)} hours): the hosts in repair, and so the spares they take, follow the mean${best}`;
}

export function applyFitWords(fitted: FittedScenario, on: Scenario, fit: LogFit | null = null): string {
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
  if (fitted.spares) parts.push(repairLawWords(fitted.spares, fit));
  const cluster = `${on.cluster.gpus.toLocaleString("en-US")} GPUs`;
  return `Use this fit: the scenario on screen gets ${parts.join(", ")}. Its cluster (${cluster}) and everything else stay; Back undoes it.`;
}
