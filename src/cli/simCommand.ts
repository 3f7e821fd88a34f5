/**
 * `npm run sim -- <scenario.json | share link> [--seeds N | --precision P --max-runs N] [--json] [--link] [--threads N] [--no-budget]`:
 * the cluster model in a terminal (README.md "The command line"). Kept apart from the entry
 * point (sim.ts) so tests can run it in-process; it never exits or prints, it returns what to
 * print (progress, which cannot wait, goes to the `progress` sink).
 *
 * Without --seeds it runs the scenario's own seed, the same run the app shows; --seeds N runs
 * seeds seed..seed+N−1 and reports mean, p5 and p95 (nearest rank), on every core when the job
 * is large (parallelMonteCarlo.ts; the numbers do not depend on the thread count). With
 * --precision or --max-runs and no --seeds it runs the page's Monte Carlo (src/sim/monteCarlo/mcStream.ts):
 * seeds from the scenario's own, in the page's chunks, until every selected policy's 95 % interval
 * of the mean ETTR is within ±P points (at least MIN_RUNS runs) or N runs, so it stops at the run
 * count the page stops at; the summary is then exactly that of --seeds <that count>. --seeds
 * wins: given --seeds, that many seeds run and the other two are not used.
 *
 * Every input has a bounded cost decided before any work: a scenario file is a regular file of
 * at most 1 MiB; the Monte Carlo may simulate at most SEED_BUDGET_FAILURES failures (seeds ×
 * expected failures per run), unless --no-budget says the user means it.
 */

import { writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import {
  DISPLAY_SETTINGS,
  type DisplaySetting,
  type DisplaySettingName,
  parseSetting,
  storedDefault,
  toShown,
  toStored,
} from "../link/displaySettings.ts";
import { LinkError } from "../link/linkError.ts";
import { decodeScenarioLink, encodeScenarioHash, scenarioLinkProblem } from "../link/scenarioLink.ts";
import { runScenario } from "../sim/engine.ts";
import { runFailuresCsv } from "../sim/failures/replayLog.ts";
import {
  expectedEventsPerRun,
  MONTE_CARLO_BUDGET_FAILURES,
  monteCarloCost,
} from "../sim/monteCarlo/budget.ts";
import { type McSettings, type McStop, McStream } from "../sim/monteCarlo/mcStream.ts";
import { runChunk as runStreamChunk } from "../sim/monteCarlo/monteCarlo.ts";
import { closedFormsOf } from "../sim/policies/policyForms.ts";
import { DEFAULT_SCENARIO, parseScenario, type Scenario, ScenarioError } from "../sim/scenario/index.ts";
import type { MonteCarloResult } from "../sim/types.ts";
import { describeDuplicateKey, firstDuplicateKey } from "../step/jsonSyntax.ts";
import { echo, terminalLine, terminalText } from "./echo.ts";
import { simHelp, wantsHelp } from "./help.ts";
import { InputFileError, readInputFile } from "./inputFile.ts";
import { cliThreads, parallelMonteCarlo } from "./parallelMonteCarlo.ts";
import { resultJson, resultTable } from "./simOutput.ts";

export const USAGE =
  "usage: npm run sim -- <scenario.json | share link> [--seeds N | --precision P --max-runs N] [--json] [--link] [--threads N] [--no-budget] [--failures-csv FILE]";
export const MAX_SEEDS = 100_000;
/** A scenario is a few hundred bytes; anything past this is not one. */
export const MAX_SCENARIO_FILE_BYTES = 1024 * 1024;
/** Failures the Monte Carlo may simulate without --no-budget: the page's budget too (budget.ts). */
export const SEED_BUDGET_FAILURES = MONTE_CARLO_BUDGET_FAILURES;
/** Below this many failures in all, threads would cost more to start than they save. */
export const PARALLEL_FROM_FAILURES = 500_000;
/** Progress goes to stderr once a Monte Carlo has run this long, then at most this often. */
export const PROGRESS_AFTER_MS = 1000;
/** Where `npm start` serves the app (README); --link prints links to it. */
export const APP_URL = "http://localhost:4173/";

/** Bad input: the message is printed as one line on stderr, and the exit status is 2. */
export class InputError extends Error {}

export interface SimOptions {
  input: string;
  seeds: number;
  /**
   * --precision (± points) or --max-runs without --seeds: run to the precision like the page
   * (the Monte Carlo's settings, precision as a fraction); null: run `seeds` seeds.
   */
  toPrecision: McSettings | null;
  json: boolean;
  link: boolean;
  /** Threads for the Monte Carlo, the main one included; null: every core when the job is large. */
  threads: number | null;
  /** --no-budget: run a Monte Carlo past SEED_BUDGET_FAILURES. */
  noBudget: boolean;
  /** --failures-csv PATH: write the run's failures there as CSV time,host,cause (one seed only). */
  failuresCsv: string | null;
}

function integerValue(flag: string, raw: string | undefined, max: number): number {
  const n = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(n >= 1 && n <= max)) {
    throw new InputError(
      `${flag} must be an integer in [1, ${max.toLocaleString("en-US")}], got ${raw === undefined ? "nothing" : `"${echo(raw)}"`}`,
    );
  }
  return n;
}

/** A display setting's flag (displaySettings.ts): its table's range and words. */
function settingValue(name: DisplaySettingName, raw: string | undefined): number {
  const flag = (DISPLAY_SETTINGS[name] as DisplaySetting).cliFlag;
  if (raw === undefined) throw new InputError(`${flag} needs a value`);
  try {
    return parseSetting(name, raw);
  } catch (e) {
    throw new InputError(`${flag}: ${echo((e as Error).message)}`);
  }
}

export function parseArgs(argv: readonly string[]): SimOptions {
  let input: string | null = null;
  let seeds: number | null = null;
  let precision: number | null = null;
  let maxRuns: number | null = null;
  let json = false;
  let link = false;
  let threads: number | null = null;
  let noBudget = false;
  let failuresCsv: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf("=");
    const [flag, inline] =
      arg.startsWith("--") && eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
    if (flag === "--json" && inline === undefined) json = true;
    else if (flag === "--link" && inline === undefined) link = true;
    else if (flag === "--no-budget" && inline === undefined) noBudget = true;
    else if (flag === "--seeds") seeds = integerValue("--seeds", inline ?? argv[++i], MAX_SEEDS);
    else if (flag === "--precision") precision = settingValue("mcPrecision", inline ?? argv[++i]);
    else if (flag === "--max-runs") maxRuns = settingValue("mcCap", inline ?? argv[++i]);
    else if (flag === "--threads") threads = integerValue("--threads", inline ?? argv[++i], 256);
    else if (flag === "--failures-csv") {
      failuresCsv = inline ?? argv[++i] ?? "";
      if (failuresCsv === "") throw new InputError("--failures-csv needs a file to write, got nothing");
    } else if (flag.startsWith("-")) throw new InputError(`unknown option ${echo(arg)}; ${USAGE}`);
    else if (input === null) input = arg;
    else throw new InputError(`one scenario expected, got a second: ${echo(arg)}`);
  }
  if (input === null) throw new InputError(`no scenario given; ${USAGE}`);
  if (failuresCsv !== null && (seeds ?? 1) !== 1)
    throw new InputError(
      `--failures-csv writes one run's failures: it needs --seeds 1, got --seeds ${seeds}`,
    );
  if (failuresCsv !== null && (precision !== null || maxRuns !== null))
    throw new InputError(
      "--failures-csv writes one run's failures: it cannot go with --precision or --max-runs",
    );
  const toPrecision =
    seeds === null && (precision !== null || maxRuns !== null)
      ? {
          precision: precision === null ? storedDefault("mcPrecision") : toStored("mcPrecision", precision),
          cap: maxRuns ?? storedDefault("mcCap"),
        }
      : null;
  return { input, seeds: seeds ?? 1, toPrecision, json, link, threads, noBudget, failuresCsv };
}

/** A share link as a person pastes it: a URL, `#s=...` or `s=...`. Anything else is a file path. */
function looksLikeLink(input: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(input) || input.startsWith("#") || input.startsWith("s=");
}

export function loadScenario(input: string): Scenario {
  if (looksLikeLink(input)) {
    try {
      return decodeScenarioLink(input) ?? DEFAULT_SCENARIO;
    } catch (e) {
      if (e instanceof LinkError) throw new InputError(`bad share link: ${e.message}`);
      throw e;
    }
  }
  let text: string;
  try {
    text = readInputFile(input, MAX_SCENARIO_FILE_BYTES, "scenario file");
  } catch (e) {
    if (e instanceof InputFileError) throw new InputError(e.message);
    throw e;
  }
  return scenarioFromText(text, input);
}

/** A scenario file's text (read by readInputFile: no byte-order mark) as a scenario; `name` names it in errors. */
export function scenarioFromText(text: string, name: string): Scenario {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new InputError(`${echo(name)} is not valid JSON: ${(e as Error).message}`);
  }
  const twice = firstDuplicateKey(text);
  if (twice) throw new InputError(`invalid scenario in ${echo(name)}: ${describeDuplicateKey(twice)}`);
  try {
    return parseScenario(value);
  } catch (e) {
    if (e instanceof ScenarioError) throw new InputError(`invalid scenario in ${echo(name)}: ${e.message}`);
    throw e;
  }
}

const count = (n: number) => n.toLocaleString("en-US", { maximumFractionDigits: 0 });

function checkBudget(s: Scenario, seeds: number, budget: number, flag: string): void {
  const cost = monteCarloCost(s, seeds);
  if (cost <= budget) return;
  throw new InputError(
    `${flag} ${count(seeds)} × ${count(Math.max(1, expectedEventsPerRun(s)))} expected ${s.slow.perHostDay > 0 ? "failures and slow episodes" : "failures"} per run = ${count(cost)} ${s.slow.perHostDay > 0 ? "events" : "failures"} to simulate, past the budget of ${count(budget)}; ask for at most ${count(Math.max(1, Math.floor(budget / (cost / seeds))))} ${flag === "--seeds" ? "seeds" : "runs"}, or add --no-budget to run it anyway`,
  );
}

export interface SimIo {
  /** Where progress lines go as they happen (stderr in the terminal). */
  progress?: (line: string) => void;
  /** Milliseconds, for the progress line's timing (performance.now by default). */
  now?: () => number;
  /** Cores to use when --threads is not given (os.availableParallelism by default). */
  cores?: number;
  /** The seeds budget in failures (SEED_BUDGET_FAILURES by default). */
  budgetFailures?: number;
  /** Where --failures-csv writes (fs.writeFileSync by default). */
  writeFile?: (path: string, text: string) => void;
}

/** Calls onProgress's result when seeds are done; writes a line once PROGRESS_AFTER_MS has passed, then each second. */
function progressReporter(io: SimIo): (done: number, total: number) => void {
  const now = io.now ?? (() => performance.now());
  const started = now();
  let lastLine = started;
  return (done, total) => {
    const t = now();
    if (!io.progress || done === total || t - started < PROGRESS_AFTER_MS || t - lastLine < PROGRESS_AFTER_MS)
      return;
    lastLine = t;
    const elapsed = (t - started) / 1000;
    const left = (elapsed * (total - done)) / done;
    io.progress(
      `sim: ${count(done)} of ${count(total)} seeds (${Math.floor((100 * done) / total)} %), ${elapsed.toFixed(0)} s so far, about ${left.toFixed(0)} s left\n`,
    );
  };
}

/**
 * The page's Monte Carlo to a precision, in one thread: chunks in order until the stream stops
 * (mcStream.ts decides where, at a chunk end), then the summary of the runs it kept.
 */
export function toPrecision(
  s: Scenario,
  settings: McSettings,
  onProgress: (done: number, total: number) => void = () => {},
): { result: MonteCarloResult; stop: McStop } {
  const stream = new McStream(s, settings);
  for (let next = stream.next(); next; next = stream.next()) {
    stream.put(next.index, runStreamChunk(s, next.chunk));
    onProgress(stream.runs, settings.cap);
  }
  return { result: stream.result(closedFormsOf(s)), stop: stream.stop ?? "cap" };
}

function stopLine(stop: McStop, settings: McSettings, runs: number): string {
  const points = `±${toShown("mcPrecision", settings.precision)}`;
  return stop === "precision"
    ? `stopped: every policy's mean ETTR within ${points} points (95 %) after ${count(runs)} runs`
    : `stopped: the cap of ${count(settings.cap)} runs, before ${points} points`;
}

/** Run the command; returns the exit status and what to print. Throws only on a bug. */
export async function simCommand(
  argv: readonly string[],
  io: SimIo = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  if (wantsHelp(argv)) return { code: 0, stdout: simHelp(), stderr: "" };
  try {
    const opts = parseArgs(argv);
    const scenario = loadScenario(opts.input);
    if (opts.link) {
      const problem = scenarioLinkProblem(scenario);
      if (problem) throw new InputError(problem);
      return { code: 0, stdout: `${APP_URL}${encodeScenarioHash(scenario)}\n`, stderr: "" };
    }
    const budget = io.budgetFailures ?? SEED_BUDGET_FAILURES;
    if (opts.toPrecision) {
      if (!opts.noBudget) checkBudget(scenario, opts.toPrecision.cap, budget, "--max-runs");
      const { result, stop } = toPrecision(scenario, opts.toPrecision, progressReporter(io));
      const out = opts.json
        ? JSON.stringify(resultJson(result), null, 2)
        : `${resultTable(result)}\n\n${stopLine(stop, opts.toPrecision, result.seeds)}`;
      return { code: 0, stdout: `${terminalText(out)}\n`, stderr: "" };
    }
    if (!opts.noBudget) checkBudget(scenario, opts.seeds, budget, "--seeds");
    if (opts.failuresCsv !== null) {
      // The run of the scenario's own seed, recorded: the failures every policy met.
      const run = runScenario(scenario, { record: true });
      (io.writeFile ?? writeFileSync)(opts.failuresCsv, runFailuresCsv(scenario, run.trace!.failures));
    }
    const large = monteCarloCost(scenario, opts.seeds) >= PARALLEL_FROM_FAILURES;
    const threads = opts.threads ?? (large ? (io.cores ?? availableParallelism()) : 1);
    const result = await parallelMonteCarlo(scenario, opts.seeds, {
      ...cliThreads(threads, opts.seeds),
      onProgress: progressReporter(io),
    });
    const out = opts.json ? JSON.stringify(resultJson(result), null, 2) : resultTable(result);
    return { code: 0, stdout: `${terminalText(out)}\n`, stderr: "" };
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    return { code: 2, stdout: "", stderr: `sim: ${terminalLine(e.message)}\n` };
  }
}
