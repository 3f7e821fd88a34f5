import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ddpGpuTrace, exampleSpec } from "../testing/ddpTrace.ts";

const fixtures = join(import.meta.dirname, "../step/trace/fixtures");
const gloo = [0, 1].map((r) => join(fixtures, `cpu-gloo-rank${r}.json.gz`));

function trace(...args: string[]) {
  const r = spawnSync(process.execPath, ["--import", "tsx", join(import.meta.dirname, "trace.ts"), ...args], {
    encoding: "utf8",
    timeout: 25_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function temp(name: string, data: string | Uint8Array): string {
  const path = join(mkdtempSync(join(tmpdir(), "trace-cli-")), name);
  writeFileSync(path, data);
  return path;
}

function huge(): string {
  const path = temp("huge.json", "");
  truncateSync(path, 11 * 2 ** 27);
  return path;
}

interface Out {
  verdict: string;
  ranks: {
    rank: number;
    worldSize: number | null;
    device: string;
    steps: { name: string; ms: number; commMs: number; overlapPct: number | null }[];
    commMs: number;
    overlapPct: number | null;
    temporal: object;
    kernelTypes: object;
  }[];
  crossRank: { lateStart: { rank: number }[] };
  model: { fit: { calls?: number; error?: string }; steps: { predictedMs?: number }[] };
}

describe("npm run trace", { timeout: 60_000 }, () => {
  it("--json: per rank figures, cross-rank figures, the verdict; --all-steps keeps the last step", () => {
    const r = trace(...gloo, "--json");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as Out;
    expect(out.ranks.map((x) => x.rank)).toEqual([0, 1]);
    for (const k of [
      "rank",
      "worldSize",
      "device",
      "steps",
      "commMs",
      "overlapPct",
      "temporal",
      "kernelTypes",
    ])
      expect(Object.keys(out.ranks[0] ?? {})).toContain(k);
    expect(out.ranks[0]?.steps.map((s) => s.name)).toEqual([
      "ProfilerStep#1",
      "ProfilerStep#2",
      "ProfilerStep#3",
    ]);
    expect(out.crossRank.lateStart).toHaveLength(2);
    expect(out.verdict).toMatch(
      new RegExp(`${Math.round(out.ranks[0]?.overlapPct as number)} % hidden on rank 0`),
    );
    expect(out.model.fit.error).toMatch(/size/);
    const all = JSON.parse(trace(...gloo, "--json", "--all-steps").stdout) as Out;
    expect(all.ranks[0]?.steps).toHaveLength(4);
  });

  it("fits the link and puts the model beside a GPU trace with sizes", () => {
    const files = [0, 1].map((k) => temp(`rank${k}.json`, ddpGpuTrace(exampleSpec(k))));
    const out = JSON.parse(trace(...files, "--json").stdout) as Out;
    expect(out.model.fit.calls).toBe(24);
    expect(out.model.steps).toHaveLength(3);
    expect(out.model.steps[0]?.predictedMs).toBeGreaterThan(0);
    const text = trace(...files).stdout;
    expect(text).toMatch(/all-reduce fit over 24 calls/);
    expect(text).toMatch(/model \(fitted link\) on ProfilerStep#5/);
  });

  it("bad input: one line on stderr naming the problem, exit 2", () => {
    const cases: [string[], RegExp][] = [
      [[], /^trace: usage: npm run trace/],
      [["--frob", gloo[0] as string], /unknown option --frob/],
      [["/no/such.json"], /cannot read trace \/no\/such.json: no such file/],
      [[temp("x.json", "hello")], /x.json: not a profiler trace/],
      [
        [temp("cut.json.gz", readFileSync(gloo[0] as string).subarray(0, 3000))],
        /cut.json.gz: the (gzip data is|trace ends)/,
      ],
      [[gloo[0] as string, gloo[0] as string], /rank 0 is given twice/],
      [[fixtures], /not a regular file/],
      // A sparse file: 1.1 GiB on paper, nothing on disk; refused by its size before any read.
      [[huge()], /huge.json: it is larger than 1024 MiB; only regular files up to 1024 MiB are read/],
    ];
    for (const [args, message] of cases) {
      const r = trace(...args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stdout).toBe("");
    }
  });

  it("--help prints the usage and every option", () => {
    const r = trace("--help");
    expect(r.code).toBe(0);
    for (const o of ["--all-steps", "--json"]) expect(r.stdout).toContain(`  ${o}`);
  });
});
