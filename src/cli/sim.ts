/**
 * Entry point of `npm run sim` (see simCommand.ts for the options). Bad input: one line on
 * stderr, exit 2; anything else that goes wrong is a bug: one line too, exit 1.
 */
import { availableParallelism } from "node:os";
import { prestartWorkers } from "./parallelMonteCarlo.ts";

const argv = process.argv.slice(2);
// A Monte Carlo may run on every core: its workers start now, so that their start-up overlaps the
// loading of the schema code and the validation below (simCommand is imported after, for that);
// one the run does not use is dropped at exit.
// --threads N asks for N − 1 workers at most: `--threads 1` starts none (a worker started for
// nothing costs the other core its start-up).
if (argv.some((a) => a === "--seeds" || a.startsWith("--seeds=")))
  prestartWorkers(Math.min(availableParallelism(), threadsAsked(argv)) - 1);

/** The --threads value when it is a positive integer; otherwise every core (simCommand refuses a bad one by name). */
function threadsAsked(args: readonly string[]): number {
  const at = args.findIndex((a) => a === "--threads" || a.startsWith("--threads="));
  if (at < 0) return Number.POSITIVE_INFINITY;
  const flag = args[at]!;
  const value = Number(flag.includes("=") ? flag.slice(flag.indexOf("=") + 1) : args[at + 1]);
  return Number.isInteger(value) && value >= 1 ? value : Number.POSITIVE_INFINITY;
}
const { simCommand } = await import("./simCommand.ts");
const { terminalLine } = await import("./echo.ts");

try {
  const { code, stdout, stderr } = await simCommand(argv, {
    progress: (line) => process.stderr.write(line),
  });
  process.stdout.write(stdout);
  process.stderr.write(stderr);
  process.exitCode = code;
} catch (e) {
  process.stderr.write(`sim: internal error: ${terminalLine(String(e))}\n`);
  process.exitCode = 1;
}
