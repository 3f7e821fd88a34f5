/**
 * `npm run step`'s link, nodes and compute: --alpha / --bandwidth (a link fitted by `npm run
 * trace`), --nodes / --gpus-per-node, a One step share link as input, and the compute times said
 * with their source and settable. Each expected step is the step model's own, run in-process.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { encodeStepParam } from "../link/stepLink.ts";
import { linkPreset } from "../step/collectiveCost.ts";
import { parseModelList } from "../step/modelList.ts";
import { computeForElements, DEFAULT_STEP_CONFIG, presetInfo } from "../step/presetCatalog.ts";
import { presetParams } from "../step/presets.ts";
import { runStep, type StepConfig } from "../step/stepTimeline.ts";

const resnet = join(import.meta.dirname, "../step/models/resnet50.json");

function step(...args: string[]) {
  const r = spawnSync(process.execPath, ["--import", "tsx", join(import.meta.dirname, "step.ts"), ...args], {
    encoding: "utf8",
    timeout: 25_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface Out {
  metrics: { stepMs: number; commMs: number; exposedCommMs: number };
  compute: { forwardMs: number; backwardMs: number; optimizerMs: number; source: string };
  ringLink: { id: string; alpha: number; bandwidth: number };
}
const json = (...args: string[]) => {
  const r = step(...args, "--json");
  expect(r.stderr).toBe("");
  return JSON.parse(r.stdout) as Out;
};

/** A list that is no preset's: 24 bf16 matrices of 2048 × 2048. */
const customList = JSON.stringify(
  Array.from({ length: 24 }, (_, i) => ({
    name: `l${i}.weight`,
    shape: [2048, 2048],
    dtype: "torch.bfloat16",
  })),
);
const custom = join(mkdtempSync(join(tmpdir(), "step-opts-")), "custom.json");
writeFileSync(custom, customList);

describe("npm run step: link, nodes and compute", { timeout: 30_000 }, () => {
  it("--alpha (µs) and --bandwidth (GB/s) set the all-reduce ring's link, as the page's knobs take them", () => {
    const out = json(
      resnet,
      "--alpha",
      "12.5",
      "--bandwidth",
      "5.5",
      "--nodes",
      "16",
      "--gpus-per-node",
      "4",
    );
    const p = DEFAULT_STEP_CONFIG.parallel;
    const config: StepConfig = {
      ...DEFAULT_STEP_CONFIG,
      parallel: {
        ...p,
        replicas: 16,
        gpusPerReplica: 4,
        interLink: { ...p.interLink, alpha: 12.5 / 1e6, bandwidth: 5.5 * 1e9 },
      },
    };
    expect(out.ringLink).toEqual({ id: "eth-100", alpha: 12.5 / 1e6, bandwidth: 5.5e9 });
    expect(out.metrics).toMatchObject(runStep(presetParams("resnet50"), config).metrics);
    const text = step(resnet, "--alpha=12.5", "--bandwidth=5.5");
    expect(text.stdout).toMatch(/ring on 100 Gb\/s Ethernet \(edited\): α 12\.50 µs, B 5\.500 GB\/s/);
  });

  it("with --nodes 1 the ring runs inside the node, and --alpha / --bandwidth set that link", () => {
    const out = json(resnet, "--nodes", "1", "--bandwidth", "200");
    expect(out.ringLink).toEqual({
      id: "nvlink-h100",
      alpha: linkPreset("nvlink-h100").alpha,
      bandwidth: 2e11,
    });
  });

  /** A One step link of Llama 3 8B on HSDP, 8 replicas over RoCE, 50 MiB buckets. */
  function llamaLink() {
    const c = DEFAULT_STEP_CONFIG;
    const config: StepConfig = {
      ...c,
      capMb: 50,
      compute: presetInfo("llama3-8b").compute,
      parallel: { ...c.parallel, mode: "hsdp", replicas: 8, interLink: linkPreset("roce-400") },
    };
    return { st: encodeStepParam({ model: { kind: "preset", id: "llama3-8b" }, config }).param, config };
  }

  it("reads a One step share link as a URL, a hash or st=: its model and settings", () => {
    const { st, config } = llamaLink();
    const expected = runStep(presetParams("llama3-8b"), config).metrics;
    for (const link of [`http://localhost:5173/#v=step&st=${st}`, `#st=${st}&v=step`, `st=${st}`])
      expect(json(link).metrics).toMatchObject(expected);
  });

  it("takes flags and a model file beside a share link: they replace what they name, the rest stays the link's", () => {
    const { st, config } = llamaLink();
    const text = step(`st=${st}`);
    expect(text.stdout).toMatch(/^Llama 3 8B \(the link's model\): 291 parameters/);
    expect(text.stdout).toMatch(/step \(HSDP, 8 × 8 GPUs, ring on 400 Gb\/s RoCE\/IB: /);
    // A flag changes what it names; the rest stays the link's.
    const wider = { ...config, parallel: { ...config.parallel, replicas: 32 } };
    expect(json(`st=${st}`, "--nodes", "32").metrics).toMatchObject(
      runStep(presetParams("llama3-8b"), wider).metrics,
    );
    // A model file beside the link replaces its model, with the file's own times.
    const params = parseModelList(customList);
    const own = { ...config, compute: computeForElements(params.reduce((s, p) => s + p.numel, 0)) };
    expect(json(custom, `st=${st}`).metrics).toMatchObject(runStep(params, own).metrics);
  });

  it("says which compute times it used and where they come from, and lets them be set", () => {
    const r = step(resnet);
    expect(r.stdout).toContain(
      "compute per step (one GPU): forward 30 ms + backward 60 ms + optimizer 2 ms = 92 ms, ResNet-50's times (the list is that preset's list)",
    );
    // Another list is not ResNet-50: it gets the page's estimate from its size, and says so.
    const params = parseModelList(customList);
    const elements = params.reduce((s, p) => s + p.numel, 0);
    const estimate = computeForElements(elements);
    const out = json(custom);
    expect(out.compute).toMatchObject(estimate);
    expect(out.compute.source).toBe(
      `estimated from the list's ${elements.toLocaleString("en-US")} elements as for an LLM (forward 2·P·8,192 tokens at 400 TFLOP/s per GPU, backward twice that)`,
    );
    expect(out.metrics).toMatchObject(runStep(params, { ...DEFAULT_STEP_CONFIG, compute: estimate }).metrics);
  });

  it("lets the compute times be set, all or some, and says so", () => {
    const params = parseModelList(customList);
    const set = json(custom, "--forward-ms", "40", "--backward-ms=80", "--optimizer-ms", "3");
    expect(set.compute).toEqual({
      forwardMs: 40,
      backwardMs: 80,
      optimizerMs: 3,
      source: "set by --forward-ms, --backward-ms, --optimizer-ms",
    });
    const compute = { forwardMs: 40, backwardMs: 80, optimizerMs: 3 };
    expect(set.metrics).toMatchObject(runStep(params, { ...DEFAULT_STEP_CONFIG, compute }).metrics);
    expect(json(resnet, "--backward-ms", "100").compute.source).toBe(
      "--backward-ms set, the rest ResNet-50's times (the list is that preset's list)",
    );
  });

  it.each([
    [
      "--bandwidth 0",
      [resnet, "--bandwidth", "0"],
      '--bandwidth needs a bandwidth in GB/s in [0.001, 1000000], got "0"',
    ],
    ["--alpha 2e6", [resnet, "--alpha", "2e6"], "--alpha needs a latency in µs in [0, 1000000]"],
    ["--nodes 2.5", [resnet, "--nodes", "2.5"], "--nodes needs a whole number of nodes in [1, 100000]"],
    [
      "--gpus-per-node 0",
      [resnet, "--gpus-per-node", "0"],
      "--gpus-per-node needs a whole number of GPUs in [1, 1024]",
    ],
    ["--forward-ms -1", [resnet, "--forward-ms=-1"], "--forward-ms needs a time in ms in [0, 1000000]"],
    ["--nodes twice", [resnet, "--nodes", "2", "--nodes", "3"], "--nodes is given twice"],
    [
      "a Cluster link",
      ["#v=cluster&s=2.abc"],
      "bad share link: the link has no One step settings (st=) and is a link to v=cluster",
    ],
    ["a broken st=", ["#v=step&st=2.AAAA"], "bad share link: "],
  ])("refuses %s by name, exit 2", (_what, args, message) => {
    const r = step(...args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(message);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("documents every new option in --help", () => {
    const help = step("--help").stdout;
    for (const flag of [
      "--nodes N",
      "--gpus-per-node N",
      "--alpha US",
      "--bandwidth GBS",
      "--forward-ms MS",
      "share link",
    ])
      expect(help).toContain(flag);
  });
});
