/**
 * What the baseline's timeline, stacked under the one on screen, shows of its run: both are drawn
 * on the scenario on screen's time axis (its horizon: the window a link keeps is that one's), so a
 * baseline of another length is cut or ends early, and the sentence says which, from the two lengths.
 */
import type { Scenario } from "../../sim/scenario/index.ts";
import { count } from "../format.ts";

const days = (d: number) => `${count(d, d % 1 === 0 ? 0 : 2)} ${d === 1 ? "day" : "days"}`;

export function baselineAxisWords(baseline: Scenario, scenario: Scenario): string {
  const b = baseline.training.days;
  const c = scenario.training.days;
  const moves = "zoom or pan on either moves both";
  if (b === c) return `Both run ${days(c)} on one time axis: ${moves}.`;
  if (b > c)
    return `The baseline runs ${days(b)}, this scenario ${days(c)}: drawn on this scenario's axis, the baseline's last ${days(b - c)} ${b - c === 1 ? "is" : "are"} not shown; ${moves}.`;
  return `The baseline runs ${days(b)}, this scenario ${days(c)}: on this scenario's axis the baseline's timeline ends at day ${count(b, b % 1 === 0 ? 0 : 2)}; ${moves}.`;
}
