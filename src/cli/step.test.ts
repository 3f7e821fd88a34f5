import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { STEP_RANGES } from "../step/stepRanges.ts";

const resnet = join(import.meta.dirname, "../step/models/resnet50.json");

function step(...args: string[]) {
  const r = spawnSync(process.execPath, ["--import", "tsx", join(import.meta.dirname, "step.ts"), ...args], {
    encoding: "utf8",
    // A CLI that waits (on a FIFO, on /dev/zero) is killed and fails the test (status null), where
    // a synchronous spawn would otherwise block past the test's own limit, which cannot stop it.
    timeout: 25_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function tempFile(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), "step-cli-")), "model.json");
  writeFileSync(path, text);
  return path;
}

describe("npm run step", { timeout: 30_000 }, () => {
  it("--json prints buckets in all-reduce order with names, bytes and dtype, plus timeline and metrics", () => {
    const r = step(resnet, "--cap-mb", "25", "--json");
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as {
      buckets: { params: string[]; bytes: number; dtype: string }[];
      timeline: { comm: { bucket: number; start: number }[] };
      metrics: { stepMs: number; overlapRatio: number; bucketCount: number };
    };
    expect(Object.keys(out)).toEqual(["buckets", "timeline", "metrics", "compute", "ringLink"]);
    expect(out.buckets).toHaveLength(5);
    expect(out.buckets[0]).toEqual({ params: ["fc.bias", "fc.weight"], bytes: 8_196_000, dtype: "float32" });
    expect(out.buckets.flatMap((b) => b.params)).toHaveLength(161);
    expect(out.timeline.comm.map((c) => c.bucket)).toEqual([0, 1, 2, 3, 4]);
    expect(out.metrics.bucketCount).toBe(5);
  });

  it("--slow-compute makes every all-reduce wait for the slow rank, and says what it added", () => {
    const even = JSON.parse(step(resnet, "--json").stdout) as { metrics: { stepMs: number } };
    const r = step(resnet, "--slow-compute", "1.5", "--json");
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as {
      timeline: { comm: { start: number; wait?: { start: number; end: number } }[] };
      metrics: { stepMs: number };
      slowRank: { kind: string; factor: number; exposedWaitMs: number; evenStepMs: number };
    };
    expect(out.slowRank).toMatchObject({ kind: "compute", factor: 1.5, evenStepMs: even.metrics.stepMs });
    expect(out.metrics.stepMs).toBeCloseTo(even.metrics.stepMs + out.slowRank.exposedWaitMs, 9);
    for (const c of out.timeline.comm) expect(c.wait?.end).toBe(c.start);
    // Without a slow rank the output has no slowRank key: as it always was.
    expect(Object.keys(even)).toEqual(["buckets", "timeline", "metrics", "compute", "ringLink"]);
  });

  it("--slow-link says which link, and what the slow rank added, in the report", () => {
    const text = step(resnet, "--slow-link=2");
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /One rank's 100 Gb\/s Ethernet link across nodes at 1\/2 of its bandwidth \(rank 31 of 32\) makes every all-reduce run at its pace: [\d.]+ ms of waiting, \+[\d.]+ ms a step/,
    );
  });

  it("takes a plain list and both bucket limits", () => {
    const list = JSON.stringify([
      { name: "a", shape: [262144], dtype: "torch.float32" },
      { name: "b", shape: [262144], dtype: "torch.float32" },
      { name: "c", shape: [262144], dtype: "torch.float32" },
    ]);
    const r = step(tempFile(list), "--cap-mb", "2", "--first-bucket-mb=2", "--json");
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { buckets: { params: string[] }[] };
    // 1 MiB each, ready c, b, a: c + b = 2 MiB closes the first (2 MiB) bucket.
    expect(out.buckets.map((b) => b.params)).toEqual([["c", "b"], ["a"]]);
  });

  it("reads a model file that starts with a byte-order mark", () => {
    const r = step(tempFile('\uFEFF[{"name": "w", "shape": [2], "dtype": "float32"}]'), "--json");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
  });

  const fifo = join(mkdtempSync(join(tmpdir(), "step-cli-")), "fifo");
  execFileSync("mkfifo", [fifo]);

  it("takes --cap-mb and --first-bucket-mb in the range the page's knobs and the link take", () => {
    const { capMb, firstBucketMb } = STEP_RANGES;
    const cap = step(resnet, "--cap-mb", String(capMb.max * 2));
    expect(cap.code).toBe(2);
    expect(cap.stderr).toContain(`--cap-mb needs a number of MiB in [${capMb.min}, ${capMb.max}]`);
    const first = step(resnet, "--first-bucket-mb", "1000", "--cap-mb", String(capMb.max));
    expect(first.code).toBe(2);
    expect(first.stderr).toContain(
      `--first-bucket-mb needs a number of MiB in [${firstBucketMb.min}, ${firstBucketMb.max}]`,
    );
  });

  // One test per input: each starts the CLI through tsx (1.5 s alone, 13 s for all eight at load
  // 9), so the describe's 30 s bounds one start, not eight; the FIFO and the device still fail the
  // test if the CLI waits on them.
  it.each([
    ["an unknown dtype", () => [tempFile('[{"name": "a", "shape": [1], "dtype": "float99"}]')]],
    ["cut JSON", () => [tempFile("[{")]],
    ["a bad --cap-mb", () => [resnet, "--cap-mb", "zero"]],
    ["a slowdown below 1", () => [resnet, "--slow-compute", "0.9"]],
    ["two slow ranks", () => [resnet, "--slow-compute", "2", "--slow-link", "2"]],
    ["a missing file", () => ["/nonexistent/model.json"]],
    ["a device", () => ["/dev/zero"]],
    ["a FIFO", () => [fifo]],
    ["a directory", () => [import.meta.dirname]],
    ["no arguments", () => []],
  ])("exits 2 with one line on stderr, without waiting, for %s", (_what, argsOf: () => string[]) => {
    const args = argsOf();
    const r = step(...args);
    expect(r.code, args.join(" ")).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim().split("\n"), r.stderr).toHaveLength(1);
  });
});
