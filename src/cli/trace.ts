/**
 * `npm run trace -- FILE... [--all-steps] [--json]`
 * `npm run trace -- --compare A... -- B... [--all-steps] [--json]` (traceCompare.ts)
 *
 * Measures PyTorch profiler traces (Kineto JSON or .json.gz, one file per rank; PyTorch 1.x
 * chrome traces of gloo CPU runs too) as Holistic Trace Analysis does (docs/trace.md), with the
 * same code as the One step view's Trace panel. Bad input: one line on stderr, exit 2.
 */
import { measureSet, type TraceSet } from "../step/trace/ranks.ts";
import { traceJson, traceReport } from "../step/trace/traceReport.ts";
import { echo, terminalLine, terminalText } from "./echo.ts";
import { TRACE_HELP, wantsHelp } from "./help.ts";
import { parseCompareArgs, runCompare, wantsCompare } from "./traceCompare.ts";
import { readTraceFile } from "./traceFile.ts";

const USAGE = "usage: npm run trace -- <trace.json[.gz]>... [--all-steps] [--json]";

class UsageError extends Error {}

interface Options {
  files: string[];
  allSteps: boolean;
  json: boolean;
}

export function parseArgs(argv: readonly string[]): Options {
  const files: string[] = [];
  let allSteps = false;
  let json = false;
  for (const arg of argv) {
    if (arg === "--json") json = true;
    else if (arg === "--all-steps") allSteps = true;
    else if (arg.startsWith("-")) throw new UsageError(`unknown option ${echo(arg)}; ${USAGE}`);
    else files.push(arg);
  }
  if (files.length === 0) throw new UsageError(USAGE);
  return { files, allSteps, json };
}

export function runTrace(opts: Options): { set: TraceSet; out: string } {
  const traces = opts.files.map(readTraceFile);
  const set = measureSet(traces, { allSteps: opts.allSteps });
  return { set, out: opts.json ? JSON.stringify(traceJson(set)) : traceReport(set) };
}

function main(argv: readonly string[]): number {
  if (wantsHelp(argv)) {
    process.stdout.write(TRACE_HELP);
    return 0;
  }
  try {
    const { out } = wantsCompare(argv) ? runCompare(parseCompareArgs(argv)) : runTrace(parseArgs(argv));
    process.stdout.write(`${terminalText(out)}\n`);
    return 0;
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    process.stderr.write(`trace: ${terminalLine(message)}\n`);
    return 2;
  }
}

process.exitCode = main(process.argv.slice(2));
