/**
 * The text `npm run fit` prints: each figure of §5 on a line, with what it means, then what
 * could not be estimated and why. Names from the log pass through echo (escaped, cut).
 */
import { pValueText } from "../sim/fit/drift.ts";
import type { FitNote, LogFit } from "../sim/fit/fitLog.ts";
import { FORMAT_NAMES } from "../sim/fit/types.ts";
import { echo } from "./echo.ts";

const n = (x: number) => x.toLocaleString("en-US");
const g = (x: number, digits = 3) =>
  Number(x.toPrecision(digits)).toLocaleString("en-US", { maximumSignificantDigits: digits });
const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

export function fitReport(file: string, fit: LogFit, scenarioNotes: readonly FitNote[]): string {
  const lines = [`${echo(file)}: ${FORMAT_NAMES[fit.format]}`];
  lines.push(
    `failures: ${n(fit.events)} fault starts in ${n(fit.bursts)} failures (bursts)${fit.multiHostBurstShare === null ? "" : `, ${pct(fit.multiHostBurstShare)} of them strike more than one host`}`,
  );
  const bound = fit.hostsFromLog
    ? " (hosts seen in the log: the rate is an upper bound, hosts that never failed are not in it)"
    : "";
  lines.push(`fleet: ${n(fit.hosts)} hosts${bound}, ${g(fit.days, 4)} days`);
  if (fit.perHostDay !== null && fit.faultsPerHostDay !== null) {
    lines.push(
      `rate: ${g(fit.perHostDay, 4)} failures per host-day (${g(fit.faultsPerHostDay, 4)} fault starts per host-day)`,
    );
  }
  const e = fit.exponential;
  const w = fit.weibull;
  if (e) {
    lines.push(
      `arrivals: ${fit.arrivals === "weibull" ? "Weibull" : "Poisson"} chosen (AIC Poisson ${g(e.aic, 6)}${w ? `, Weibull ${g(w.aic, 6)}` : ""}; Weibull is chosen when lower by more than 2)`,
    );
    if (w) {
      const reading =
        w.shapeHi < 1
          ? "bursty: after one failure the next comes sooner than at random"
          : w.shapeLo > 1
            ? "regular: failures come more evenly than at random"
            : "no clear departure from random arrivals";
      lines.push(
        `  Weibull shape k ${g(w.shape)} (95 % interval ${g(w.shapeLo)}–${g(w.shapeHi)}), scale ${g(w.scaleSeconds / 86_400)} days: ${reading}`,
      );
    }
  }
  lines.push(
    `causes by ${echo(fit.label)}: ${fit.causes.map((c) => `${echo(c.name, 40)} ${pct(c.share)}`).join(", ")}`,
  );
  const r = fit.repairs;
  if (r) {
    const law = r.lognormal
      ? `; lognormal μ ${g(r.lognormal.mu)}, σ ${g(r.lognormal.sigma)} (median ${g(Math.exp(r.lognormal.mu))} h)`
      : "";
    lines.push(
      `repairs: median ${g(r.medianHours)} h, mean ${g(r.meanHours)} h, p90 ${g(r.p90Hours)} h, ${n(r.open)} left open${law}`,
    );
    if (r.unmatchedEnds > 0)
      lines.push(`  ${n(r.unmatchedEnds)} fault ends closed no open fault of their host and were left out`);
  }
  const m = fit.mixture;
  if (fit.hostsDispersion !== null && m) {
    const classes =
      m.chosen === "two"
        ? `two classes fit better (AIC ${g(m.aicTwo, 6)} vs one ${g(m.aicOne, 6)}): ${pct(m.share)} of hosts fail ${Number.isFinite(m.factor) ? `${g(m.factor)}×` : "infinitely"} as often as the rest`
        : `two classes do not fit better than one (AIC ${g(m.aicTwo, 6)} vs ${g(m.aicOne, 6)}): hosts alike`;
    const over = fit.hostsFromLog
      ? " (over the hosts in the log only; --hosts counts those that never failed)"
      : "";
    lines.push(
      `lemon hosts: dispersion index ${g(fit.hostsDispersion)} (1 for alike hosts)${over}; ${classes}`,
    );
  }
  if (fit.drift.windows.length > 0) {
    const p = fit.drift.pValue;
    lines.push(
      `drift: fault starts per 30-day window ${fit.drift.windows.join(", ")}${p === null ? "" : `; one constant rate ${p < 0.05 ? "does not fit" : "fits"} (chi-square p = ${pValueText(p, 3)})`}`,
    );
  }
  for (const note of [...fit.notes, ...scenarioNotes])
    lines.push(`not estimated — ${note.what}: ${note.why}`);
  return lines.join("\n");
}
