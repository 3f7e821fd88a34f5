/**
 * What `npm run sim -- --help` and `npm run step -- --help` print (on stdout, exit status 0): the
 * usage line each command already gives on bad input, then what each option does.
 */

/** True when the arguments ask for help (wherever the flag stands: nothing else runs). */
export function wantsHelp(argv: readonly string[]): boolean {
  return argv.some((a) => a === "--help" || a === "-h");
}

export const SIM_HELP = `usage: npm run sim -- <scenario.json | share link> [--seeds N] [--json] [--link] [--threads N] [--no-budget]

Runs the cluster model (synchronous vs FT-HSDP on the same failures) on a scenario file or a
share link, with the same engine and numbers as the browser.

  <scenario.json>   a scenario (JSON, version 1 or 2; fields left out take their defaults)
  <share link>      an explorer link (http://…/#s=…, #s=… or s=…) instead of a file
  --seeds N         Monte Carlo over seeds seed..seed+N-1: mean, p5, p95 (N in [1, 100,000])
  --json            one JSON object: the completed scenario, seeds, each policy's metrics, closed forms
  --link            print the scenario's share link instead of running it
  --threads N       threads for the Monte Carlo (default: every core when the run is large)
  --no-budget       run a Monte Carlo past the 10^9-failure budget, on purpose
  -h, --help        print this help

Bad input prints one line on stderr naming the problem, and exits with status 2.
`;

export const STEP_HELP = `usage: npm run step -- <model.json> [--cap-mb N] [--first-bucket-mb N] [--json]

Prints PyTorch DDP's gradient buckets for a model's named_parameters() list, in all-reduce
order, and the step timeline they make (DDP over 4 x 8 GPUs).

  <model.json>          [{"name", "shape", "dtype"}, ...] as PyTorch prints it (or {"parameters": [...]})
  --cap-mb N            bucket_cap_mb (default 25)
  --first-bucket-mb N   the first bucket's cap (default 1, as PyTorch up to 2.2)
  --json                buckets, timeline and metrics as one JSON object
  -h, --help            print this help

Bad input prints one line on stderr naming the problem, and exits with status 2.
`;

export const FIT_HELP = `usage: npm run fit -- <log> [--hosts N] [--days D] [--label L] [--unit U] [--burst-seconds S] [--json] [--scenario]

Fits the cluster model to a failure log (SIMULATION.md §5): failures and bursts, the rate,
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
