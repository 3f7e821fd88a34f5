/**
 * `npm run fit -- LOG --json`: exactly the keys below, in their order. A figure the log
 * cannot give is null (the text report says why).
 */
import type { LogFit } from "./fitLog.ts";
import type { FittedScenario } from "./fitScenario.ts";

export function fitJson(fit: LogFit, scenario: FittedScenario) {
  const w = fit.weibull;
  const r = fit.repairs;
  const m = fit.mixture;
  return {
    events: fit.events,
    bursts: fit.bursts,
    hosts: fit.hosts,
    days: fit.days,
    perHostDay: fit.perHostDay,
    faultsPerHostDay: fit.faultsPerHostDay,
    multiHostBurstShare: fit.multiHostBurstShare,
    arrivals: {
      chosen: fit.arrivals,
      weibull: w && {
        shape: w.shape,
        shapeLo: w.shapeLo,
        shapeHi: w.shapeHi,
        scaleDays: w.scaleSeconds / 86_400,
      },
      aic: { poisson: fit.exponential?.aic ?? null, weibull: w?.aic ?? null },
    },
    causes: fit.causes.map((c) => ({ name: c.name, share: c.share })),
    repairs: {
      medianHours: r?.medianHours ?? null,
      meanHours: r?.meanHours ?? null,
      p90Hours: r?.p90Hours ?? null,
      open: fit.openFaults,
      lognormal: r?.lognormal ?? null,
    },
    hostsDispersion: fit.hostsDispersion,
    badHosts: m && {
      share: m.share,
      factor: Number.isFinite(m.factor) ? m.factor : null,
      aicOne: m.aicOne,
      aicTwo: m.aicTwo,
      chosen: m.chosen,
    },
    drift: { windows: fit.drift.windows, pValue: fit.drift.pValue },
    scenario,
  };
}
