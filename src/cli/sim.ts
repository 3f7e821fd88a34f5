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
if (argv.some((a) => a === "--seeds" || a.startsWith("--seeds=")))
  prestartWorkers(availableParallelism() - 1);
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
