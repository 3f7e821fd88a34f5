/** The Job MTBF knob's own bounds: it sets the per-host failure rate, whose bounds it inherits. */
import { FIELD_SPECS, type FieldSpec } from "../../sim/scenario/index.ts";

/**
 * The longest job MTBF taken: at most 0.001 expected failures in the longest horizon (365 days).
 * Past it the rate it sets underflows (MTBF 1e308 min made a rate of exactly 0, shown as 0 in both
 * fields); for no failures, the rate is set to 0.
 */
export const MAX_MTBF_MINUTES = 1e9;

/** Why a typed MTBF (minutes) is refused for this many hosts, saying what was typed, or null. */
export function mtbfProblem(m: number, hosts: number): string | null {
  const maxRate = (FIELD_SPECS.failures.perHostDay as FieldSpec & { max: number }).max;
  // Written so that neither bound overflows: 1440 / (hosts · rate) minutes.
  const shortest = 1440 / (hosts * maxRate);
  const range = `[${shortest.toPrecision(3)}, ${MAX_MTBF_MINUTES.toLocaleString("en-US")}] minutes for ${hosts.toLocaleString("en-US")} hosts`;
  if (!(m >= shortest))
    return `Job MTBF: ${m} min is refused: a failure rate of at most ${maxRate} per host-day means an MTBF in ${range}.`;
  if (m > MAX_MTBF_MINUTES)
    return `Job MTBF: ${m} min is refused: longer than ${MAX_MTBF_MINUTES.toLocaleString("en-US")} minutes, no failure shows in any horizon; it must be in ${range} (set the failure rate to 0 for none).`;
  return null;
}
