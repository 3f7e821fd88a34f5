/**
 * What `npm run sim -- --help` and `npm run step -- --help` print (on stdout, exit status 0): the
 * usage line each command already gives on bad input, then what each option does.
 */
import { STEP_RANGES } from "../step/stepRanges.ts";

const range = (r: { min: number; max: number }) => `[${r.min}, ${r.max}]`;
const FACTOR = range(STEP_RANGES.slowFactor);

import { DISPLAY_SETTINGS, settingAllowed } from "../link/displaySettings.ts";
import { registeredPolicies } from "../sim/policies/index.ts";
import { DEFAULT_POLICIES, MAX_POLICIES } from "../sim/policies/policyKeys.ts";

const { mcPrecision: precision, mcCap: cap } = DISPLAY_SETTINGS;

/** True when the arguments ask for help (wherever the flag stands: nothing else runs). */
export function wantsHelp(argv: readonly string[]): boolean {
  return argv.some((a) => a === "--help" || a === "-h");
}

/** The strategies a scenario may select, one line each, from the plug-in list (in its order). */
function strategyLines(): string {
  const policies = registeredPolicies();
  const width = Math.max(...policies.map((p) => p.key.length)) + 2;
  return policies.map((p) => `  ${p.key.padEnd(width)}${p.label}: ${p.blurb}`).join("\n");
}

/** `npm run sim -- --help`: the options, and the strategies this build knows. */
export function simHelp(): string {
  return `${SIM_USAGE}
Strategies: a scenario's "policies" selects 1–${MAX_POLICIES} of these keys, in display order
(default ${DEFAULT_POLICIES.join(", ")}):
${strategyLines()}
`;
}

const SIM_USAGE = `usage: npm run sim -- <scenario.json | share link> [--seeds N | --precision P --max-runs N] [--json] [--link] [--threads N] [--no-budget] [--failures-csv FILE]

Runs the cluster model (the scenario's strategies, below, on the same failures) on a scenario
file or a share link, with the same engine and numbers as the browser.

  <scenario.json>   a scenario (JSON, versions 1–4; fields left out take their defaults)
  <share link>      an explorer link (http://…/#s=…, #s=… or s=…) instead of a file
  --seeds N         Monte Carlo over seeds seed..seed+N-1: mean, p5, p95 (N in [1, 100,000])
  --precision P     without --seeds: add seeds, as the page does, until every policy's mean ETTR
                    is known within ±P points at 95 % (at least 100 runs); --seeds wins when both
                    are given. P: ${settingAllowed("mcPrecision")}; default ${precision.default}
  --max-runs N      without --seeds: run to the precision, but never more than N runs.
                    N: ${settingAllowed("mcCap")}; default ${cap.default.toLocaleString("en-US")}
  --json            one JSON object: the completed scenario, seeds, each policy's metrics, closed forms
  --link            print the scenario's share link instead of running it
  --threads N       threads for the Monte Carlo (default: every core when the run is large)
  --no-budget       run a Monte Carlo past the 10^9-failure budget, on purpose
  --failures-csv F  also write the run's failures to F as CSV time,host,cause (seconds; one line
                    per host struck); with --seeds 1 only. A replay of that log (failures.log)
                    gives the run's numbers bit for bit
  -h, --help        print this help

Bad input prints one line on stderr naming the problem, and exits with status 2.
`;

export const STEP_HELP = `usage: npm run step -- <model.json> and/or <share link> [--cap-mb N] [--first-bucket-mb N] [--nodes N] [--gpus-per-node N] [--alpha US] [--bandwidth GBS] [--forward-ms MS] [--backward-ms MS] [--optimizer-ms MS] [--slow-compute F | --slow-link F] [--json]

Prints PyTorch DDP's gradient buckets for a model's named_parameters() list, in all-reduce
order, and the step timeline they make (DDP over 4 x 8 GPUs on 100 Gb/s Ethernet by default).
It says which compute times it used and where they come from.

  <model.json>          [{"name", "shape", "dtype"}, ...] as PyTorch prints it (or {"parameters": [...]})
  share link            a One step link from the page (a URL, "#v=step&st=..." or "st=..."): its
                        model and settings; a model file given beside it replaces its model. The
                        flags below change what they name, the rest stays the link's
  --cap-mb N            bucket_cap_mb, N in ${range(STEP_RANGES.capMb)} MiB (default 25)
  --first-bucket-mb N   the first bucket's cap, N in ${range(STEP_RANGES.firstBucketMb)} MiB (default 1, as
                        PyTorch up to 2.2)
  --nodes N             nodes (replicas with HSDP), N in ${range(STEP_RANGES.replicas)} (default 4)
  --gpus-per-node N     GPUs per node (per replica with HSDP), N in ${range(STEP_RANGES.gpusPerReplica)} (default 8)
  --alpha US            the all-reduce ring's link (across nodes; inside the node with --nodes 1):
                        latency per ring step in microseconds, in [${STEP_RANGES.alphaSeconds.min * 1e6}, ${STEP_RANGES.alphaSeconds.max * 1e6}]
  --bandwidth GBS       that link's bandwidth per rank in GB/s, in [${STEP_RANGES.bandwidthBytesPerSecond.min / 1e9}, ${STEP_RANGES.bandwidthBytesPerSecond.max / 1e9}].
                        npm run trace prints a fitted link as "α … µs, B … GB/s": give those here
  --forward-ms MS       compute per step on one GPU, each MS in ${range(STEP_RANGES.computeMs)}. By default
  --backward-ms MS      a preset's list (resnet50.json...) takes the preset's times, any other list
  --optimizer-ms MS     times estimated from its size as for an LLM (forward 2·P·8,192 tokens at
                        400 TFLOP/s, backward twice that), a link its own
  --slow-compute F      one rank's backward takes F times as long (F in ${FACTOR}): every
                        all-reduce waits for its gradients; the step shown is a healthy GPU's
  --slow-link F         one rank's link on the all-reduce ring (across nodes) has 1/F of its
                        bandwidth (F in ${FACTOR}): every ring runs at its pace
  --json                buckets, timeline, metrics, the compute times (and their source) and the
                        ring's link as one JSON object
  -h, --help            print this help

Bad input prints one line on stderr naming the problem, and exits with status 2.
`;

export const TRACE_HELP = `usage: npm run trace -- <trace.json[.gz]>... [--all-steps] [--json]
       npm run trace -- --compare <control.json[.gz]>... -- <test.json[.gz]>... [--all-steps] [--json]

Measures PyTorch profiler traces (Kineto JSON or .json.gz, one file per rank; PyTorch 1.x
chrome traces of gloo CPU runs too) as Holistic Trace Analysis does: each step's communication,
its overlap with computation, the temporal and kernel-type breakdowns, each rank's late start;
then fits an alpha-beta link to the all-reduces and puts the step model beside the measurement.

  <trace.json[.gz]>  one trace per rank (at most 1 GiB each)
  --all-steps        keep the last ProfilerStep (dropped by default, as HTA does)
  --json             one JSON object: the verdict, per-rank figures, cross-rank figures, the model
  --compare A... -- B...
                     compare trace set A (control) with set B (test), rank by rank and step by
                     step: the change in step time split into computation, exposed communication,
                     memory and idle, the sentence naming what explains most of it, and the
                     kernels added, deleted, increased, decreased (HTA's TraceDiff)
  -h, --help         print this help

Bad input prints one line on stderr naming the problem, and exits with status 2.
`;

export const FIT_HELP = `usage: npm run fit -- <log> [--hosts N] [--days D] [--label L] [--unit U] [--burst-seconds S] [--json] [--scenario]

Fits the cluster model to a failure log (docs/model.md §5): failures and bursts, the rate,
Poisson vs Weibull arrivals (k with its 95 % interval, AIC), the cause mix, repair times, lemon
hosts and drift per 30-day window.

  <log>              an event list (InfiniteHBD's JSON: node_id, event_time in days,
                     event_type fault_start | fault_end, fault_type {Level, Class, Desc}),
                     a CSV with the header time,host,cause[,end], or a counts table
                     {gpus, gpusPerHost, days, causes: {name: count}}; at most 64 MiB, 1,000,000 events
  --hosts N          the fleet's hosts (default: the distinct hosts in the log, an upper bound on the rate)
  --days D           the window in days (default: the last timestamp - the first)
  --label L          the label causes are grouped by: Level, Class (default) or Desc; cause for a CSV
  --unit U           a CSV's numeric times: days (default), hours or seconds
  --burst-seconds S  fault starts this close together are one failure (default 0: the same instant)
  --json             every figure as one JSON object
  --scenario         the fitted scenario file (JSON) instead of the figures
  -h, --help         print this help

Bad input prints one line on stderr naming the problem, and exits with status 2.
`;
