/**
 * A log, fitted (docs/model.md §5 "Fitting a log"): every figure of the section, each with what
 * the charts need, and for each figure that cannot be estimated from this log, a note saying
 * why (one failure has no gap; a log at one instant spans no time; a counts table has no hosts).
 * The rest is fitted all the same.
 */
import { burstGaps, burstsOf } from "./bursts.ts";
import { type CauseShare, causeShares, labelCounts } from "./causeMix.ts";
import { type Drift, driftOf } from "./drift.ts";
import { dispersionIndex, fitPoissonMixture, type MixtureFit } from "./poissonMixture.ts";
import { quote } from "./quote.ts";
import { matchRepairs, type RepairSummary, summarizeRepairs } from "./repairs.ts";
import {
  type CountsLog,
  type EventLog,
  type FailureLog,
  LogError,
  type LogFormat,
  SECONDS_PER_DAY,
} from "./types.ts";
import { type ExponentialFit, fitExponential, fitWeibull, type WeibullFit } from "./weibullFit.ts";

export interface FitOptions {
  /** The fleet's hosts H; default: the distinct hosts in the log (an upper bound on the rate). */
  hosts?: number;
  /** The window D in days; default: the last timestamp − the first (ends included). */
  days?: number;
  /** The label causes are grouped by (Class for an event list, cause for a CSV). */
  label?: string;
  /** Fault starts this close to a burst's first are one failure (default 0: the same instant). */
  burstSeconds?: number;
}

export interface FitNote {
  /** The figure not estimated: "rate", "arrivals", "shape", "repairs", "lemons", "drift". */
  what: string;
  why: string;
}

export interface LogFit {
  format: LogFormat;
  /** Fault starts. */
  events: number;
  bursts: number;
  hosts: number;
  /** True when H was not given: the rate is an upper bound (hosts that never failed are not in the log). */
  hostsFromLog: boolean;
  hostsSeen: number;
  days: number;
  perHostDay: number | null;
  faultsPerHostDay: number | null;
  multiHostBurstShare: number | null;
  /** Gaps between bursts, seconds, in time order (the CDF chart sorts a copy). */
  gapsSeconds: Float64Array;
  exponential: ExponentialFit | null;
  weibull: WeibullFit | null;
  arrivals: "poisson" | "weibull" | null;
  label: string;
  causes: CauseShare[];
  repairHours: Float64Array;
  repairs: (RepairSummary & { open: number; unmatchedEnds: number }) | null;
  /** Fault starts no end closed (null for a counts table). */
  openFaults: number | null;
  /** Fault starts per host over the fleet (hosts not in the log: 0). */
  hostCounts: Int32Array;
  hostsDispersion: number | null;
  mixture: MixtureFit | null;
  drift: Drift;
  notes: FitNote[];
}

function checkOptions(o: FitOptions): void {
  if (o.hosts !== undefined && !(Number.isInteger(o.hosts) && o.hosts >= 1 && o.hosts <= 10_000_000)) {
    throw new LogError(`hosts: got ${o.hosts}; must be a whole number in [1, 10,000,000]`);
  }
  if (o.days !== undefined && !(Number.isFinite(o.days) && o.days > 0 && o.days <= 36_500)) {
    throw new LogError(`days: got ${o.days}; must be a number in (0, 36,500]`);
  }
  if (
    o.burstSeconds !== undefined &&
    !(Number.isFinite(o.burstSeconds) && o.burstSeconds >= 0 && o.burstSeconds <= 86_400)
  ) {
    throw new LogError(`burstSeconds: got ${o.burstSeconds}; must be a number in [0, 86,400]`);
  }
}

const rateOf = (n: number, hosts: number, days: number) => (days > 0 ? n / (hosts * days) : null);

function fitCounts(log: CountsLog, o: FitOptions): LogFit {
  const hosts = o.hosts ?? Math.ceil(log.gpus / log.gpusPerHost);
  const days = o.days ?? log.days;
  const events = log.causes.reduce((a, c) => a + c.count, 0);
  const why = "a counts table has no times or hosts, only a rate and a mix";
  const notes: FitNote[] = ["arrivals", "repairs", "lemons", "drift"].map((what) => ({ what, why }));
  return {
    format: "counts",
    events,
    bursts: events,
    hosts,
    hostsFromLog: false,
    hostsSeen: 0,
    days,
    perHostDay: rateOf(events, hosts, days),
    faultsPerHostDay: rateOf(events, hosts, days),
    multiHostBurstShare: null,
    gapsSeconds: new Float64Array(0),
    exponential: null,
    weibull: null,
    arrivals: null,
    label: "cause",
    causes: causeShares(log.causes),
    repairHours: new Float64Array(0),
    repairs: null,
    openFaults: null,
    hostCounts: new Int32Array(0),
    hostsDispersion: null,
    mixture: null,
    drift: { windows: [], pValue: null },
    notes,
  };
}

function fitEvents(log: EventLog, o: FitOptions): LogFit {
  const notes: FitNote[] = [];
  const events = log.startSeconds.length;
  if (events === 0) throw new LogError("the log has no fault start: nothing to fit");
  const hostsSeen = log.hostNames.length;
  if (o.hosts !== undefined && o.hosts < hostsSeen) {
    throw new LogError(
      `hosts: got ${o.hosts}, but the log names ${hostsSeen} distinct hosts; the fleet has at least that many`,
    );
  }
  const label = o.label ?? log.defaultLabel;
  const labelIndex = log.labelKeys.indexOf(label);
  if (labelIndex < 0)
    throw new LogError(
      `label: ${quote(label)} is not a label of this log; it has ${log.labelKeys.join(", ")}`,
    );

  const hosts = o.hosts ?? hostsSeen;
  const first = Math.min(log.startSeconds[0]!, log.endSeconds[0] ?? Number.POSITIVE_INFINITY);
  const last = Math.max(log.startSeconds[events - 1]!, log.endSeconds.at(-1) ?? Number.NEGATIVE_INFINITY);
  const days = o.days ?? (last - first) / SECONDS_PER_DAY;
  if (!(days > 0))
    notes.push({
      what: "rate",
      why: "the log spans no time (its first and last timestamps are equal); give the window in days",
    });

  const bursts = burstsOf(log, o.burstSeconds ?? 0);
  let multi = 0;
  for (const h of bursts.hosts) if (h > 1) multi++;
  const gaps = burstGaps(bursts);
  const exponential = gaps.length >= 1 ? fitExponential(gaps) : null;
  const weibull = fitWeibull(gaps);
  if (bursts.count === 1) {
    const why =
      events > 1
        ? `all ${events} fault starts are one failure (one instant): there is no gap between failures`
        : "one failure has no gap between failures";
    notes.push({ what: "arrivals", why });
  } else if (weibull === null) {
    const why =
      gaps.length < 2
        ? "two failures make one gap; the shape needs at least two gaps"
        : "every gap between failures is the same length: the shape is not determined";
    notes.push({ what: "shape", why });
  }
  const arrivals =
    exponential === null
      ? null
      : weibull !== null && weibull.aic < exponential.aic - 2
        ? "weibull"
        : "poisson";

  const matched = matchRepairs(log);
  const summary = summarizeRepairs(matched.hours);
  if (summary === null) notes.push({ what: "repairs", why: "no fault end closes a fault start" });
  else if (summary.lognormal === null)
    notes.push({ what: "repair law", why: "fewer than two repairs of different positive lengths" });

  const hostCounts = new Int32Array(hosts);
  for (const h of log.startHost) if (h >= 0) hostCounts[h]! += 1;
  const mixture = fitPoissonMixture(hostCounts);

  const drift = driftOf(log.startSeconds, first, Math.max(days, 0));
  if (drift.pValue === null)
    notes.push({
      what: "drift",
      why: `the window is ${days > 0 ? "shorter than two 30-day windows" : "empty"}`,
    });

  return {
    format: log.format,
    events,
    bursts: bursts.count,
    hosts,
    hostsFromLog: o.hosts === undefined,
    hostsSeen,
    days: Math.max(days, 0),
    perHostDay: rateOf(bursts.count, hosts, days),
    faultsPerHostDay: rateOf(events, hosts, days),
    multiHostBurstShare: multi / bursts.count,
    gapsSeconds: gaps,
    exponential,
    weibull,
    arrivals,
    label,
    causes: causeShares(labelCounts(log.labelValues[labelIndex]!, log.startLabel[labelIndex]!)),
    repairHours: matched.hours,
    repairs: summary && { ...summary, open: matched.open, unmatchedEnds: matched.unmatchedEnds },
    openFaults: matched.open,
    hostCounts,
    hostsDispersion: dispersionIndex(hostCounts),
    mixture,
    drift,
    notes,
  };
}

export function fitLog(log: FailureLog, options: FitOptions = {}): LogFit {
  checkOptions(options);
  if (log.format === "counts") {
    if (options.label !== undefined && options.label !== "cause") {
      throw new LogError(`label: a counts table has one label, its cause names; got ${quote(options.label)}`);
    }
    return fitCounts(log, options);
  }
  return fitEvents(log, options);
}
