/**
 * `npm run trace -- --compare A... -- B... [--all-steps] [--json]`: trace set A (control) beside
 * trace set B (test), per rank and step, as docs/trace.md's "Comparing two trace sets" defines
 * it, with the same code as the One step view's comparison.
 */

import { diffJson, diffText } from "../step/trace/diffReport.ts";
import { measureSet } from "../step/trace/ranks.ts";
import { diffSets, type SetDiff } from "../step/trace/traceDiff.ts";
import { echo } from "./echo.ts";
import { readTraceFile } from "./traceFile.ts";

export const COMPARE_USAGE =
  "usage: npm run trace -- --compare <control.json[.gz]>... -- <test.json[.gz]>... [--all-steps] [--json]";

export class CompareUsageError extends Error {}

export interface CompareOptions {
  control: string[];
  test: string[];
  allSteps: boolean;
  json: boolean;
}

export function wantsCompare(argv: readonly string[]): boolean {
  return argv.includes("--compare");
}

export function parseCompareArgs(argv: readonly string[]): CompareOptions {
  const control: string[] = [];
  const test: string[] = [];
  let side: string[] | null = null;
  let allSteps = false;
  let json = false;
  for (const arg of argv) {
    if (arg === "--compare") {
      if (side !== null) throw new CompareUsageError(`--compare is given twice; ${COMPARE_USAGE}`);
      side = control;
    } else if (arg === "--") {
      if (side !== control)
        throw new CompareUsageError(`"--" must follow --compare's control files; ${COMPARE_USAGE}`);
      side = test;
    } else if (arg === "--json") json = true;
    else if (arg === "--all-steps") allSteps = true;
    else if (arg.startsWith("-"))
      throw new CompareUsageError(`unknown option ${echo(arg)}; ${COMPARE_USAGE}`);
    else if (side === null)
      throw new CompareUsageError(`${echo(arg)} comes before --compare; ${COMPARE_USAGE}`);
    else side.push(arg);
  }
  if (control.length === 0) throw new CompareUsageError(`no control traces; ${COMPARE_USAGE}`);
  if (side !== test) throw new CompareUsageError(`no "--" between control and test traces; ${COMPARE_USAGE}`);
  if (test.length === 0) throw new CompareUsageError(`no test traces after "--"; ${COMPARE_USAGE}`);
  return { control, test, allSteps, json };
}

export function runCompare(opts: CompareOptions): { diff: SetDiff; out: string } {
  const measure = (files: readonly string[]) =>
    measureSet(files.map(readTraceFile), { allSteps: opts.allSteps }).ranks;
  const diff = diffSets(measure(opts.control), measure(opts.test));
  return { diff, out: opts.json ? JSON.stringify(diffJson(diff)) : diffText(diff) };
}
