/**
 * `npm run bench:budget`: the worst-case input of each budget, timed.
 * - The validator's bound: the largest scenario it accepts (a million expected failures), one
 *   run as the CLI and the Monte Carlo make it, and one recorded run as the page makes it.
 * - The CLI's seeds budget (SEED_BUDGET_FAILURES failures): its worst case is the budget spent on
 *   the heaviest runs; measured as the time per failure of the largest scenario, times the budget
 *   (running it whole takes minutes: the figure is that product, labelled so).
 * Prints a table and the load average; writes bench/budget-results.json.
 */
import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { SEED_BUDGET_FAILURES } from "../src/cli/simCommand.ts";
import { runScenario } from "../src/sim/engine.ts";
import { derived, MAX_EXPECTED_FAILURES, parseScenario } from "../src/sim/scenario/index.ts";

/** A million hosts at the highest rate the bound allows over 100 days: exactly MAX_EXPECTED_FAILURES expected. */
const largest = parseScenario({
  name: "largest accepted",
  cluster: { gpus: 1_000_000, gpusPerHost: 1, replicas: 1000 },
  training: { days: 100 },
  failures: { perHostDay: MAX_EXPECTED_FAILURES / (1_000_000 * 100), hangFraction: 0.3 },
  sync: { checkpointMinutes: 0.01, checkpointWriteSeconds: 0.001 },
});

function time(repeats: number, f: () => void): number[] {
  f();
  return Array.from({ length: repeats }, () => {
    const t0 = performance.now();
    f();
    return performance.now() - t0;
  });
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

const loadBefore = loadavg();
const failures = derived(largest).expectedFailures;
const plain = median(time(3, () => runScenario(largest)));
const recorded = median(time(3, () => runScenario(largest, { record: true })));
const perFailureMs = plain / failures;
const budgetMinutes = (perFailureMs * SEED_BUDGET_FAILURES) / 60_000;
const loadAfter = loadavg();

const rows = {
  largestScenario: { expectedFailures: failures, runMs: plain, recordedRunMs: recorded },
  seedsBudget: {
    failures: SEED_BUDGET_FAILURES,
    worstCase: `--seeds ${Math.floor(SEED_BUDGET_FAILURES / failures)} on the largest scenario`,
    extrapolatedMinutesOneCore: budgetMinutes,
  },
  loadAverage: { before: loadBefore, after: loadAfter },
  when: new Date().toISOString(),
};
console.log(`largest accepted scenario (${failures.toLocaleString("en-US")} expected failures, 1,000 replicas):
  one run ${plain.toFixed(0)} ms, one recorded run (as the page) ${recorded.toFixed(0)} ms (median of 3)
CLI seeds budget (${SEED_BUDGET_FAILURES.toExponential(0)} failures), worst case ${rows.seedsBudget.worstCase}:
  ${(perFailureMs * 1e6).toFixed(0)} ns per failure → about ${budgetMinutes.toFixed(1)} min on one core (extrapolated)
load average before ${loadBefore.map((x) => x.toFixed(2)).join(" ")}, after ${loadAfter.map((x) => x.toFixed(2)).join(" ")}`);
writeFileSync(join(import.meta.dirname, "budget-results.json"), `${JSON.stringify(rows, null, 2)}\n`);
