/**
 * `npm run trace -- --compare A... -- B...`: two trace sets written by the project's trace maker
 * (src/testing/ddpTrace.ts), the test set with its bucket cap raised, compared on the command
 * line; the figures are the in-process diff's (the Trace panel runs the same code), and bad
 * arguments are refused in one line, exit 2.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { diffJson } from "../step/trace/diffReport.ts";
import { measureSet } from "../step/trace/ranks.ts";
import { readTraceText } from "../step/trace/readTrace.ts";
import { diffSets } from "../step/trace/traceDiff.ts";
import { type DdpTraceSpec, ddpGpuTrace, exampleSpec } from "../testing/ddpTrace.ts";
import { parseCompareArgs } from "./traceCompare.ts";

function trace(...args: string[]) {
  const r = spawnSync(process.execPath, ["--import", "tsx", join(import.meta.dirname, "trace.ts"), ...args], {
    encoding: "utf8",
    timeout: 25_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const MB = 1_048_576;
const control = (k: number): DdpTraceSpec => ({ ...exampleSpec(k), lateUs: 0, tailUs: 50 });
const test = (k: number): DdpTraceSpec => ({ ...control(k), buckets: [5 * MB, 10 * MB] });

const dir = mkdtempSync(join(tmpdir(), "trace-compare-"));
function write(side: string, spec: DdpTraceSpec): string {
  const path = join(dir, side, `rank${spec.rank}.json`);
  mkdirSync(join(dir, side), { recursive: true });
  writeFileSync(path, ddpGpuTrace(spec));
  return path;
}

describe("npm run trace -- --compare", { timeout: 60_000 }, () => {
  const a = [0, 1].map((k) => write("control", control(k)));
  const b = [0, 1].map((k) => write("test", test(k)));

  it("--json: the comparison the in-process diff makes, naming exposed communication", () => {
    const r = trace("--compare", ...a, "--", ...b, "--json");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as ReturnType<typeof diffJson>;
    const measure = (specs: DdpTraceSpec[]) =>
      measureSet(
        specs.map((s) => readTraceText(`rank${s.rank}.json`, ddpGpuTrace(s))),
        { allSteps: false },
      ).ranks;
    const expected = diffJson(diffSets(measure([control(0), control(1)]), measure([test(0), test(1)])));
    expect(out).toEqual(expected);
    expect(out.sentence).toContain("exposed communication explains most of it");
    expect(out.ranks.map((x) => x.main)).toEqual(["exposedCommMs", "exposedCommMs"]);
    expect(out.opsDiff.decreased).toContain("all-reduce (communication)");
  });

  it("text: the sentence first, then the parts; --all-steps compares the last step too", () => {
    const r = trace("--compare", ...a, "--", ...b);
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n")[0]).toMatch(/^Test steps take .* longer than control .* 2 ranks × 3 steps/);
    expect(r.stdout).toContain("kernels and ops (HTA ops_diff):");
    const all = trace("--compare", ...a, "--", ...b, "--all-steps", "--json");
    expect((JSON.parse(all.stdout) as { pairs: number }).pairs).toBe(8);
  });

  it("bad arguments: refused by name; on the command line one line on stderr, exit 2", () => {
    for (const [args, why] of [
      [["--compare", ...a], 'no "--" between control and test traces'],
      [["--compare", ...a, "--"], 'no test traces after "--"'],
      [["--compare", "--", ...b], "no control traces"],
      [[a[0] as string, "--compare", ...a, "--", ...b], "comes before --compare"],
      [["--compare", ...a, "--", ...b, "--fast"], "unknown option"],
    ] as const)
      expect(() => parseCompareArgs(args)).toThrow(why);
    const r = trace("--compare", ...a, "--", join(dir, "missing.json"));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^trace: cannot read trace .*missing\.json.*: no such file\n$/);
  });
});
