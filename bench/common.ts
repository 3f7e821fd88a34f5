/**
 * What several benches share: the median they report, and the default scenario written to files
 * for the commands they time (the CLI completes a partial scenario from the defaults; the Python
 * model reads every field it names, so it gets the completed one: the same scenario).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_SCENARIO } from "../src/sim/scenario/index.ts";

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The default scenario as `{}` (partialFile) and completed (completedFile), in a fresh temporary folder. */
export function defaultScenarioFiles(prefix: string): { partialFile: string; completedFile: string } {
  const tmp = mkdtempSync(join(tmpdir(), prefix));
  const partialFile = join(tmp, "default.json");
  writeFileSync(partialFile, "{}");
  const completedFile = join(tmp, "completed.json");
  writeFileSync(completedFile, JSON.stringify(DEFAULT_SCENARIO));
  return { partialFile, completedFile };
}
