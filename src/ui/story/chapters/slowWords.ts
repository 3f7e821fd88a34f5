/**
 * Chapter 7's sentences about slow hosts, read from the runs: apart from the chapter (no React, no
 * worker), so the e2e test checks the page against the same words of the engine's own runs.
 */
import type { PolicyMetrics, RunResult } from "../../../sim/types.ts";
import { count, pct } from "../../format.ts";
import type { SlowCase } from "./realClustersScenarios.ts";

/** The share of what a policy would have trained that slowness took: slow / (ETTR + slow). */
const ofTraining = (m: PolicyMetrics) => m.badput.slow / (m.ettr + m.badput.slow);

/** Why each row moved, read from the runs (`runs` in SLOW_CASES' order). */
export function slowWhy(id: SlowCase["id"], runs: readonly RunResult[]): string {
  const [none, wait, evict] = runs;
  // The sentences compare the two strategies the chapter runs: without either, there is nothing to say.
  const waitSync = wait?.synchronous;
  const waitFt = wait?.ftHsdp;
  const evictSync = evict?.synchronous;
  const evictFt = evict?.ftHsdp;
  if (!none || !evict || !waitSync || !waitFt || !evictSync || !evictFt) return "";
  if (id === "no-slow") return "The plain headline: failures only.";
  if (id === "slow-wait")
    return `Slow stretches take ${pct(waitSync.badput.slow)} of the synchronous job's time and ${pct(waitFt.badput.slow)} of FT-HSDP's: ${pct(ofTraining(waitSync), 0)} and ${pct(ofTraining(waitFt), 0)} of the time each would otherwise have trained, since every step waits for its slowest host.`;
  const better = (a: number, b: number) => (a > b ? "better" : a < b ? "worse" : "no different");
  return `${count(evictFt.evictions)} evictions in ${count(evict.scenario.training.days)} days. Each restarts the whole synchronous job (${better(evictSync.ettr, waitSync.ettr)} than waiting) but only one replica of FT-HSDP (${better(evictFt.ettr, waitFt.ettr)} than waiting).`;
}
