/**
 * A published claim's row as a link (the Papers view, `npm run papers`): the Cluster view on the
 * claim's scenario, with its Monte Carlo set to run exactly the row's seeds. The precision is the
 * finest the page allows, so the cap decides where the runs stop; a scenario whose every seed
 * gives the same value (fixed arrivals) stops at the page's first 100 runs, the same value.
 */
import type { Scenario } from "../sim/scenario/index.ts";
import { DISPLAY_SETTINGS, settingParam } from "./displaySettings.ts";
import { encodeScenarioParam } from "./scenarioLink.ts";

export function claimHash(s: Scenario, runs: number): string {
  const p = DISPLAY_SETTINGS.mcPrecision;
  const n = DISPLAY_SETTINGS.mcCap;
  const parts = [
    `v=cluster`,
    `s=${encodeScenarioParam(s)}`,
    `${p.linkKey}=${settingParam("mcPrecision", p.min)}`,
  ];
  const cap = settingParam("mcCap", runs);
  if (cap) parts.push(`${n.linkKey}=${cap}`);
  return `#${parts.join("&")}`;
}
