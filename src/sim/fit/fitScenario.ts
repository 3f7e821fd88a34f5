/**
 * The scenario a fit gives (§5): its `failures` and `spares` fields, the rest left to the
 * defaults (or, in the page, to the scenario on screen: "Use this fit" keeps its cluster). Each
 * figure is brought into the field's range, and a note says so when that changed it.
 */
import {
  clampToRange,
  describeAllowed,
  type FailureCause,
  FIELD_SPECS,
  type FieldSpec,
  type NumberSpec,
  type ScalarSpec,
} from "../scenario/index.ts";
import type { FitNote, LogFit } from "./fitLog.ts";
import { poolRepairLaw } from "./repairs.ts";

/**
 * The version-4 fields a fit sets, typed here narrowly (the engine's scenario types grow them in
 * the same issue): `badHosts`, `repairLaw` and `repairSigma`.
 */
export interface FittedFailures {
  perHostDay: number;
  arrivals: "poisson" | "weibull";
  weibullShape?: number;
  hangFraction: 0;
  causes: FailureCause[];
  badHosts?: { share: number; factor: number };
}

export interface FittedSpares {
  repairLaw: "lognormal";
  repairHours: number;
  repairSigma: number;
}

export interface FittedScenario {
  name: string;
  failures: FittedFailures;
  spares?: FittedSpares;
}

/** A numeric field's spec, refused by name if the table gives it another kind. */
function numberSpec(name: string, spec: ScalarSpec | FieldSpec | undefined): NumberSpec & ScalarSpec {
  if (spec?.kind === "number" || spec?.kind === "int") return spec as NumberSpec & ScalarSpec;
  throw new Error(`the scenario's ${name} is not a number field`);
}

const badHosts = FIELD_SPECS.failures.badHosts;

/** The fields a fit sets, with the scenario's own specs: their ranges are the validator's. */
const RANGE = {
  perHostDay: numberSpec("perHostDay", FIELD_SPECS.failures.perHostDay),
  weibullShape: numberSpec("weibullShape", FIELD_SPECS.failures.weibullShape),
  factor: numberSpec("badHosts.factor", badHosts.kind === "record" ? badHosts.fields.factor : undefined),
  repairHours: numberSpec("repairHours", FIELD_SPECS.spares.repairHours),
  repairSigma: numberSpec("repairSigma", FIELD_SPECS.spares.repairSigma),
};

const CAUSE_NAME_CHARS = 40;

/** Rounded to 6 significant digits: a scenario file a person reads, not a float's last bits. */
const tidy = (x: number) => Number(x.toPrecision(6));

export function fittedScenario(fit: LogFit, name: string): { scenario: FittedScenario; notes: FitNote[] } {
  const notes: FitNote[] = [];
  const within = (field: keyof typeof RANGE, x: number): number => {
    const spec = RANGE[field];
    const y = clampToRange(spec, x);
    if (y !== x)
      notes.push({
        what: field,
        why: `the fit gives ${tidy(x)}; the model takes ${describeAllowed(spec)}, so the scenario says ${tidy(y)}`,
      });
    return tidy(y);
  };
  const failures: FittedFailures = {
    perHostDay: within("perHostDay", fit.perHostDay ?? 0),
    arrivals: fit.arrivals === "weibull" ? "weibull" : "poisson",
    hangFraction: 0,
    causes: fit.causes.map((c) => ({
      name: c.name.slice(0, CAUSE_NAME_CHARS),
      share: tidy(c.share),
      scope: "host",
      hang: false,
      newHost: true,
    })),
  };
  if (fit.arrivals === "weibull" && fit.weibull)
    failures.weibullShape = within("weibullShape", fit.weibull.shape);
  const m = fit.mixture;
  if (m && m.chosen === "two" && m.share < 1) {
    failures.badHosts = { share: tidy(m.share), factor: within("factor", m.factor) };
  }
  const scenario: FittedScenario = { name: name.slice(0, 80), failures };
  // The law that gives the pool the log's mean repair (repairs.ts), not the maximum-likelihood
  // one, whose mean may be several times the log's. A link stores the values, so older fits' links
  // keep theirs.
  const law = fit.repairs ? poolRepairLaw(fit.repairs) : null;
  if (law) {
    scenario.spares = {
      repairLaw: "lognormal",
      repairHours: within("repairHours", law.medianHours),
      repairSigma: within("repairSigma", law.sigma),
    };
  }
  return { scenario, notes };
}
