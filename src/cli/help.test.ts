import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DISPLAY_SETTINGS, type DisplaySetting } from "../link/displaySettings.ts";
import { PLUGINS } from "../sim/policies/pluginList.ts";

/** The commands as `npm run sim` and `npm run step` run them (package.json's scripts). */
function run(args: string[]) {
  const r = spawnSync(process.execPath, args, { encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const root = join(import.meta.dirname, "..", "..");
const sim = (...a: string[]) => run([join(root, "scripts", "sim.mjs"), ...a]);
const step = (...a: string[]) => run(["--import", "tsx", join(root, "src", "cli", "step.ts"), ...a]);

describe("--help", { timeout: 60_000 }, () => {
  it("npm run sim -- --help prints the usage and every option on stdout, and exits 0", () => {
    for (const flag of ["--help", "-h"]) {
      const r = sim(flag);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe("");
      expect(r.stdout).toMatch(/^usage: npm run sim -- <scenario.json \| share link>/);
      const settingFlags = Object.values(DISPLAY_SETTINGS).flatMap((d: DisplaySetting) => d.cliFlag ?? []);
      expect(settingFlags).toEqual(["--precision", "--max-runs"]);
      for (const option of ["--seeds", "--json", "--link", "--threads", "--no-budget", ...settingFlags])
        expect(r.stdout).toContain(`  ${option}`);
    }
  });

  it("npm run sim -- --help names every strategy of the plug-in list by key, in its order", () => {
    const r = sim("--help");
    const listed = [...r.stdout.matchAll(/^ {2}([a-z][A-Za-z0-9]*) +[^:]+: /gm)].map((m) => m[1]);
    expect(listed).toEqual(PLUGINS.map((p) => p.key));
  });

  it("npm run step -- --help does the same, and runs nothing even beside a model file", () => {
    const r = step("no-such-model.json", "--help");
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/^usage: npm run step -- <model.json>/);
    for (const option of [
      "--cap-mb",
      "--first-bucket-mb",
      "--nodes",
      "--gpus-per-node",
      "--alpha",
      "--bandwidth",
      "--forward-ms",
      "--backward-ms",
      "--optimizer-ms",
      "--slow-compute",
      "--slow-link",
      "--json",
    ])
      expect(r.stdout).toContain(`  ${option}`);
  });

  it("an unknown option is still refused with the usage, exit 2", () => {
    const r = sim("--hlep");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown option --hlep; usage: npm run sim/);
  });
});
