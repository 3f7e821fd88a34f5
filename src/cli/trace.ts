/**
 * `npm run trace -- FILE... [--all-steps] [--json]`
 *
 * Measures PyTorch profiler traces (Kineto JSON or .json.gz, one file per rank; PyTorch 1.x
 * chrome traces of gloo CPU runs too) as Holistic Trace Analysis does (docs/trace.md), with the
 * same code as the One step view's Trace panel. Bad input: one line on stderr, exit 2.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { basename } from "node:path";
import { measureSet, type TraceSet } from "../step/trace/ranks.ts";
import { MAX_TRACE_BYTES, TraceError } from "../step/trace/traceError.ts";
import type { RankTrace } from "../step/trace/traceModel.ts";
import { traceJson, traceReport } from "../step/trace/traceReport.ts";
import { TraceByteReader } from "../worker/traceBytes.ts";
import { echo, terminalLine, terminalText } from "./echo.ts";
import { TRACE_HELP, wantsHelp } from "./help.ts";
import { formatBytes, InputFileError } from "./inputFile.ts";

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

const CHUNK = 1 << 20;

/** Reads one trace file in 1 MiB pieces: a regular file of at most 1 GiB, never whole in memory. */
export function readTraceFile(path: string): RankTrace {
  const shown = echo(path);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputFileError(
      `cannot read trace ${shown}: ${code === "ENOENT" ? "no such file" : (e as Error).message}`,
    );
  }
  try {
    const st = fstatSync(fd);
    const only = `only regular files up to ${formatBytes(MAX_TRACE_BYTES)} are read`;
    if (!st.isFile())
      throw new InputFileError(`cannot read trace ${shown}: it is not a regular file; ${only}`);
    if (st.size > MAX_TRACE_BYTES)
      throw new InputFileError(
        `cannot read trace ${shown}: it is larger than ${formatBytes(MAX_TRACE_BYTES)}; ${only}`,
      );
    const reader = new TraceByteReader(basename(path));
    const buf = new Uint8Array(CHUNK);
    let total = 0;
    for (;;) {
      const n = readSync(fd, buf, 0, CHUNK, null);
      if (n === 0) break;
      total += n;
      if (total > MAX_TRACE_BYTES)
        throw new InputFileError(`cannot read trace ${shown}: it grew past ${formatBytes(MAX_TRACE_BYTES)}`);
      reader.push(buf.subarray(0, n));
    }
    return reader.end();
  } catch (e) {
    if (e instanceof TraceError) throw new TraceError(e.kind, `${shown}: ${e.message}`);
    throw e;
  } finally {
    closeSync(fd);
  }
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
    const { out } = runTrace(parseArgs(argv));
    process.stdout.write(`${terminalText(out)}\n`);
    return 0;
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    process.stderr.write(`trace: ${terminalLine(message)}\n`);
    return 2;
  }
}

process.exitCode = main(process.argv.slice(2));
