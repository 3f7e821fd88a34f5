/**
 * Entry point of `npm run sim` (see simCommand.ts for the options). Bad input: one line on
 * stderr, exit 2; anything else that goes wrong is a bug: one line too, exit 1.
 */
import { simCommand } from "./simCommand.ts";

try {
  const { code, stdout, stderr } = await simCommand(process.argv.slice(2), {
    progress: (line) => process.stderr.write(line),
  });
  process.stdout.write(stdout);
  process.stderr.write(stderr);
  process.exitCode = code;
} catch (e) {
  process.stderr.write(`sim: internal error: ${String(e).replace(/\s*\n\s*/g, " ")}\n`);
  process.exitCode = 1;
}
