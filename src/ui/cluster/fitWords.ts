/**
 * A fitted log in plain words (§5): what each figure means for this fleet, for a person who has
 * never met a Weibull shape. Every sentence is computed from the fit on screen.
 */
import { pValueText } from "../../sim/fit/drift.ts";
import type { LogFit } from "../../sim/fit/fitLog.ts";

const g = (x: number, digits = 2) =>
  Number(x.toPrecision(digits)).toLocaleString("en-US", { maximumSignificantDigits: digits });
const pct = (x: number) => `${x < 0.1 && x > 0 ? (100 * x).toFixed(1) : Math.round(100 * x)} %`;

/** A duration in the unit a person would say it in. */
export function durationWords(seconds: number): string {
  const h = seconds / 3600;
  if (h < 1) return `${g(seconds / 60)} minutes`;
  if (h < 48) return `${g(h)} hours`;
  return `${g(h / 24)} days`;
}

/** The share of gaps under an hour, seen and as random arrivals at the same rate would give. */
export function shortGaps(fit: LogFit): { seen: number; random: number } | null {
  const e = fit.exponential;
  if (!e || fit.gapsSeconds.length === 0) return null;
  let short = 0;
  for (const gap of fit.gapsSeconds) if (gap < 3600) short++;
  return { seen: short / fit.gapsSeconds.length, random: 1 - Math.exp(-e.rate * 3600) };
}

export function rateWords(fit: LogFit): string {
  if (fit.perHostDay === null) return "";
  const every = 86_400 / (fit.perHostDay * fit.hosts);
  const bound = fit.hostsFromLog
    ? " This is an upper bound: only the hosts that failed are in the log; give the fleet's size to get the true rate."
    : "";
  return `${fit.bursts.toLocaleString("en-US")} failures on ${fit.hosts.toLocaleString("en-US")} hosts over ${g(fit.days, 3)} days: ${g(fit.perHostDay, 3)} per host-day, one failure every ${durationWords(every)} on the whole fleet.${bound}`;
}

export function burstWords(fit: LogFit): string {
  if (fit.multiHostBurstShare === null) return "";
  const merged = fit.events - fit.bursts;
  if (merged === 0) return "Every fault started at its own instant: each is one failure.";
  return `${fit.events.toLocaleString("en-US")} faults started at ${fit.bursts.toLocaleString("en-US")} distinct instants: faults at the same instant are one failure striking all their hosts (${pct(fit.multiHostBurstShare)} of failures struck more than one host).`;
}

/**
 * Bursty, for this fleet, without the word Weibull: the short gaps seen against random arrivals
 * at the same rate, and what that changes. Null unless the log has more short gaps than random.
 */
export function burstyFleetWords(fit: LogFit): string | null {
  const gaps = shortGaps(fit);
  if (!gaps || fit.perHostDay === null || !(gaps.seen > gaps.random) || gaps.random <= 0) return null;
  const every = durationWords(86_400 / (fit.perHostDay * fit.hosts));
  const times = gaps.seen / gaps.random;
  return `On this fleet, ${pct(gaps.seen)} of failures came less than an hour after the one before; at random, with one failure every ${every} on average, it would be ${pct(gaps.random)}${times >= 1.5 ? ` (${g(times)} × fewer)` : ""}. Failures come in runs close together, with long quiet stretches between: a strategy is tested by how it takes several failures in a row, not only by how many there are.`;
}

/** The arrivals in words: bursty, regular or random, with what that means here. */
export function arrivalWords(fit: LogFit): { headline: string; fleet: string | null; detail: string } | null {
  const w = fit.weibull;
  if (!w) return null;
  const k = `A Weibull shape of ${g(w.shape)} (95 % sure it lies between ${g(w.shapeLo)} and ${g(w.shapeHi)})`;
  const gaps = shortGaps(fit);
  const evidence = gaps
    ? ` In this log ${pct(gaps.seen)} of the gaps between failures were under an hour; failures arriving at random at the same rate would give ${pct(gaps.random)}.`
    : "";
  const chosen =
    fit.arrivals === "weibull"
      ? " The Weibull law fits clearly better than random arrivals, so the fitted scenario uses it."
      : " It does not fit clearly better than random arrivals (its AIC is not lower by more than 2), so the fitted scenario keeps random (Poisson) arrivals.";
  if (w.shapeHi < 1) {
    const fleet = burstyFleetWords(fit);
    return {
      headline: "Bursty: failures cluster.",
      fleet,
      // The short gaps are said once: in the fleet's sentence when there is one.
      detail: `In the fit's terms: ${k.replace(/^A/, "a")} means that right after a failure the next one comes sooner than at random, and the quiet stretches between clusters are longer. A shape of 1 would be random arrivals; the further below 1, the burstier.${fleet ? "" : evidence}${chosen}`,
    };
  }
  if (w.shapeLo > 1) {
    return {
      headline: "Regular: failures come more evenly than at random.",
      fleet: null,
      detail: `${k} means that right after a failure another is less likely than at random: failures are spaced out. A shape of 1 would be random arrivals.${evidence}${chosen}`,
    };
  }
  return {
    headline: "No sign of bursts: failures look random.",
    fleet: null,
    detail: `${k} includes 1, the shape of random (Poisson) arrivals.${evidence}${chosen}`,
  };
}

export function repairWords(fit: LogFit): string {
  const r = fit.repairs;
  if (!r) return "";
  const tail =
    r.meanHours > 1.5 * r.medianHours
      ? ` The mean is ${g(r.meanHours)} hours because a few repairs take much longer than most`
      : ` The mean is ${g(r.meanHours)} hours`;
  const open =
    r.open > 0
      ? ` ${r.open.toLocaleString("en-US")} fault${r.open === 1 ? " was" : "s were"} still open when the log ends.`
      : "";
  return `Half the repairs took under ${g(r.medianHours)} hours.${tail}; one in ten took over ${g(r.p90Hours)} hours.${open}`;
}

export function lemonWords(fit: LogFit): string {
  const d = fit.hostsDispersion;
  const m = fit.mixture;
  if (d === null || !m) return "";
  const over = fit.hostsFromLog
    ? " Counted over the hosts in the log only: give the fleet's size to count the hosts that never failed."
    : "";
  const index = `The dispersion index is ${g(d)} (1 if every host were alike and failed at random).${over}`;
  if (m.chosen !== "two")
    return `${index} Hosts look alike: two classes of hosts do not fit better than one.`;
  const factor = Number.isFinite(m.factor) ? `${g(m.factor)}× as often as` : "while";
  return `${index} A few hosts fail far more often: the best split is ${pct(m.share)} of the hosts failing ${factor} the rest${Number.isFinite(m.factor) ? "" : " never fail"} (lemons).`;
}

export function driftWords(fit: LogFit): string {
  const p = fit.drift.pValue;
  if (p === null) return "";
  return p < 0.05
    ? `The rate changed over the log (chi-square p = ${pValueText(p, 2, true)}): one rate is an average over calmer and busier months.`
    : `One constant rate fits every 30-day window (chi-square p = ${pValueText(p, 2, true)}).`;
}

/** "Causes", or "Causes (by Class)" when the log's causes are grouped by another column than cause. */
export function causesTerm(label: string): string {
  return label.toLowerCase() === "cause" ? "Causes" : `Causes (by ${label})`;
}

/** A note's reason as a sentence of its own: its first letter capital. */
export function sentence(text: string): string {
  return text.length > 0 ? `${text[0]?.toUpperCase()}${text.slice(1)}` : text;
}
