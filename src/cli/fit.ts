/**
 * `npm run fit -- <log> [--hosts N] [--days D] [--label L] [--unit U] [--burst-seconds S] [--json] [--scenario]`
 *
 * Fits the model to a failure log (docs/model.md §5) and prints the figures, their JSON, or the
 * fitted scenario file. Bad input: one line on stderr naming the problem, exit 2.
 */
import { basename } from "node:path";
import { TIME_UNITS, type TimeUnit } from "../sim/fit/csvTime.ts";
import { fitJson } from "../sim/fit/fitJson.ts";
import { type FitOptions, fitLog } from "../sim/fit/fitLog.ts";
import { fittedScenario } from "../sim/fit/fitScenario.ts";
import { parseLog } from "../sim/fit/parseLog.ts";
import { MAX_LOG_BYTES } from "../sim/fit/types.ts";
import { echo, terminalLine, terminalText } from "./echo.ts";
import { fitReport } from "./fitReport.ts";
import { FIT_HELP, wantsHelp } from "./help.ts";
import { readInputFile } from "./inputFile.ts";

const USAGE =
  "usage: npm run fit -- <log> [--hosts N] [--days D] [--label L] [--unit U] [--burst-seconds S] [--json] [--scenario]";

class UsageError extends Error {}

interface Options {
  file: string;
  fit: FitOptions;
  unit: TimeUnit;
  json: boolean;
  scenario: boolean;
}

function numberOf(flag: string, raw: string | undefined, ok: (n: number) => boolean, what: string): number {
  const n = Number(raw);
  if (raw === undefined || raw.trim() === "" || !Number.isFinite(n) || !ok(n)) {
    throw new UsageError(`${flag} needs ${what}, got ${raw === undefined ? "nothing" : `"${echo(raw)}"`}`);
  }
  return n;
}

export function parseArgs(argv: readonly string[]): Options {
  let file: string | null = null;
  const fit: FitOptions = {};
  let unit: TimeUnit = "days";
  let json = false;
  let scenario = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? arg.split("=", 2) : [arg, undefined];
    const value = () => inline ?? argv[++i];
    if (flag === "--json") json = true;
    else if (flag === "--scenario") scenario = true;
    else if (flag === "--hosts")
      fit.hosts = numberOf(
        flag,
        value(),
        (n) => Number.isInteger(n) && n >= 1 && n <= 10_000_000,
        "a whole number of hosts in [1, 10,000,000]",
      );
    else if (flag === "--days")
      fit.days = numberOf(flag, value(), (n) => n > 0 && n <= 36_500, "a number of days in (0, 36,500]");
    else if (flag === "--burst-seconds")
      fit.burstSeconds = numberOf(
        flag,
        value(),
        (n) => n >= 0 && n <= 86_400,
        "a number of seconds in [0, 86,400]",
      );
    else if (flag === "--label") {
      const v = value();
      if (v === undefined || v === "")
        throw new UsageError("--label needs a label name (Level, Class, Desc; cause for a CSV)");
      fit.label = v;
    } else if (flag === "--unit") {
      const v = value();
      if (!TIME_UNITS.includes(v as TimeUnit))
        throw new UsageError(
          `--unit needs days, hours or seconds, got ${v === undefined ? "nothing" : `"${echo(v)}"`}`,
        );
      unit = v as TimeUnit;
    } else if (flag?.startsWith("-")) throw new UsageError(`unknown option ${echo(flag)}; ${USAGE}`);
    else if (file === null) file = arg;
    else throw new UsageError(`one log file expected, got a second: ${echo(arg)}`);
  }
  if (file === null) throw new UsageError(USAGE);
  if (json && scenario) throw new UsageError("--json and --scenario print different things; give one");
  return { file, fit, unit, json, scenario };
}

/** The way on from the plain report: the same command with --scenario, into `npm run sim`. */
function nextStep(argv: readonly string[]): string {
  const args = argv.map((a) => (/^[\w./:=@+-]+$/.test(a) ? a : JSON.stringify(a))).join(" ");
  return `to simulate this fleet: npm run fit -- ${echo(args)} --scenario > fitted.json, then npm run sim -- fitted.json`;
}

function main(argv: readonly string[]): number {
  if (wantsHelp(argv)) {
    process.stdout.write(FIT_HELP);
    return 0;
  }
  try {
    const opts = parseArgs(argv);
    const log = parseLog(readInputFile(opts.file, MAX_LOG_BYTES, "log file"), { unit: opts.unit });
    const fit = fitLog(log, opts.fit);
    const name = `Fitted to ${basename(opts.file)}`;
    const { scenario, notes } = fittedScenario(fit, name);
    const out = opts.scenario
      ? JSON.stringify(scenario, null, 2)
      : opts.json
        ? JSON.stringify(fitJson(fit, scenario))
        : `${fitReport(basename(opts.file), fit, notes)}\n${nextStep(argv)}`;
    process.stdout.write(`${terminalText(out)}\n`);
    return 0;
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    process.stderr.write(`fit: ${terminalLine(message)}\n`);
    return 2;
  }
}

process.exitCode = main(process.argv.slice(2));
