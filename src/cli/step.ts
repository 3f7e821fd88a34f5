/**
 * `npm run step -- <model.json> [--cap-mb N] [--first-bucket-mb N] [--slow-compute F | --slow-link F] [--json]`
 *
 * Prints PyTorch DDP's gradient buckets for a model's `named_parameters()` list (plain list or the
 * `{"parameters": [...]}` wrapper) in the order they are all-reduced, and the step they make
 * (DDP over 4 × 8 GPUs by default, see presetCatalog.ts). Bad input: one line on stderr, exit 2.
 *
 * The first bucket is capped at 1 MiB (docs/model.md §2, PyTorch's `_DEFAULT_FIRST_BUCKET_BYTES`).
 * Newer PyTorch (pytorch/pytorch#121640) caps it at `bucket_cap_mb` instead when the user passes
 * `bucket_cap_mb` explicitly: give `--first-bucket-mb` the same value to reproduce that.
 *
 * `--slow-compute F` / `--slow-link F` make one rank slow (src/step/slowRank.ts): its backward F×
 * as long, or its link on the all-reduce ring at 1/F of its bandwidth; the step is then a healthy
 * GPU's, and the report says what the slow rank added.
 */
import { basename } from "node:path";
import { MIB } from "../step/bucketAssignment.ts";
import { type Param, parseModelList } from "../step/modelList.ts";
import { DEFAULT_STEP_CONFIG } from "../step/presetCatalog.ts";
import { NO_SLOW_RANK, type SlowRank } from "../step/slowRank.ts";
import { slowRankSentence } from "../step/slowRankText.ts";
import { STEP_RANGES, type StepRange } from "../step/stepRanges.ts";
import { runStep, type StepConfig, type StepResult } from "../step/stepTimeline.ts";
import { echo, terminalLine, terminalText } from "./echo.ts";
import { STEP_HELP, wantsHelp } from "./help.ts";
import { readInputFile } from "./inputFile.ts";

/** A 200,000-parameter list printed by PyTorch is about 20 MB; past 64 MiB it is not a model list. */
export const MAX_MODEL_FILE_BYTES = 64 * 1024 * 1024;

const USAGE =
  "usage: npm run step -- <model.json> [--cap-mb N] [--first-bucket-mb N] [--slow-compute F | --slow-link F] [--json]";

class UsageError extends Error {}

interface Options {
  file: string;
  capMb: number;
  firstBucketMb: number;
  slowRank: SlowRank;
  json: boolean;
}

/**
 * A number in its range of STEP_RANGES, the table the page's knob and the link's decoder read
 * too, so the CLI takes what a link can carry: `what` names it in the refusal.
 */
function inRange(flag: string, raw: string | undefined, range: StepRange, what: string): number {
  const n = Number(raw);
  if (raw === undefined || raw.trim() === "" || !Number.isFinite(n) || n < range.min || n > range.max) {
    throw new UsageError(
      `${flag} needs ${what} in [${range.min}, ${range.max}], got ${raw === undefined ? "nothing" : `"${echo(raw)}"`}`,
    );
  }
  return n;
}

export function parseArgs(argv: readonly string[]): Options {
  let file: string | null = null;
  let capMb = DEFAULT_STEP_CONFIG.capMb;
  let firstBucketMb = DEFAULT_STEP_CONFIG.firstBucketMb;
  let slowRank: SlowRank = NO_SLOW_RANK;
  let json = false;
  const slow = (kind: SlowRank["kind"], flag: string, raw: string | undefined) => {
    if (slowRank.kind !== "none")
      throw new UsageError(`one slow rank at a time: ${flag} after --slow-${slowRank.kind}`);
    slowRank = { kind, factor: inRange(flag, raw, STEP_RANGES.slowFactor, "a slowdown factor") };
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? arg.split("=", 2) : [arg, undefined];
    const value = () => inline ?? argv[++i];
    if (flag === "--json") json = true;
    else if (flag === "--cap-mb") capMb = inRange("--cap-mb", value(), STEP_RANGES.capMb, "a number of MiB");
    else if (flag === "--first-bucket-mb")
      firstBucketMb = inRange("--first-bucket-mb", value(), STEP_RANGES.firstBucketMb, "a number of MiB");
    else if (flag === "--slow-compute") slow("compute", flag, value());
    else if (flag === "--slow-link") slow("link", flag, value());
    else if (flag?.startsWith("-")) throw new UsageError(`unknown option ${echo(flag)}; ${USAGE}`);
    else if (file === null) file = arg;
    else throw new UsageError(`one model file expected, got a second: ${echo(arg)}`);
  }
  if (file === null) throw new UsageError(USAGE);
  return { file, capMb, firstBucketMb, slowRank, json };
}

export function stepJson(params: readonly Param[], r: StepResult): unknown {
  const t = r.overlapped;
  return {
    buckets: r.buckets.map((b) => ({
      params: b.params.map((i) => params[i]?.name),
      bytes: b.bytes,
      dtype: b.dtype,
    })),
    timeline: {
      unit: "ms",
      forward: t.forward,
      backward: t.backward.map((b) => ({
        param: params[b.param]?.name,
        bucket: b.bucket,
        start: b.start,
        end: b.end,
      })),
      comm: t.comm.map((c) => ({
        bucket: c.bucket,
        ready: c.ready,
        start: c.start,
        end: c.end,
        phases: c.phases,
        algbwGBps: c.algbw / 1e9,
        busbwGBps: c.busbw / 1e9,
        ...(c.wait ? { wait: c.wait } : {}),
      })),
      optimizer: t.optimizer,
    },
    metrics: { ...r.metrics, noOverlapStepMs: r.baselineMetrics.stepMs },
    // Only with a slow rank: what it added (without one, the output is as it always was).
    ...(r.slowRank ? { slowRank: r.slowRank } : {}),
  };
}

const mib = (bytes: number) => `${(bytes / MIB).toFixed(2)} MiB`;

function report(name: string, params: readonly Param[], config: StepConfig, r: StepResult): string {
  const total = params.reduce((s, p) => s + p.bytes, 0);
  const lines = [
    `${echo(name)}: ${params.length} parameters, ${mib(total)} of gradients`,
    `bucket_cap_mb ${config.capMb}, first bucket ${config.firstBucketMb} MiB → ${r.buckets.length} buckets, in all-reduce order:`,
    ...r.buckets.map((b, i) => {
      const first = params[b.params[0] as number]?.name;
      const last = params[b.params.at(-1) as number]?.name;
      const span = b.params.length > 1 ? `${echo(first ?? "")} … ${echo(last ?? "")}` : echo(first ?? "");
      return `  ${String(i).padStart(3)}  ${b.dtype.padEnd(9)} ${String(b.params.length).padStart(4)} params  ${mib(b.bytes).padStart(12)}  ${span}`;
    }),
  ];
  const m = r.metrics;
  const p = config.parallel;
  lines.push(
    `step (${p.mode.toUpperCase()}, ${p.replicas} × ${p.gpusPerReplica} GPUs, ${p.interLink.label}): ` +
      `${m.stepMs.toFixed(2)} ms vs ${r.baselineMetrics.stepMs.toFixed(2)} ms without overlap; ` +
      `communication ${m.commMs.toFixed(2)} ms, exposed ${m.exposedCommMs.toFixed(2)} ms, overlap ratio ${m.overlapRatio.toFixed(3)}`,
  );
  const slow = slowRankSentence(config, r);
  if (slow) lines.push(slow);
  return lines.join("\n");
}

function main(argv: readonly string[]): number {
  if (wantsHelp(argv)) {
    process.stdout.write(STEP_HELP);
    return 0;
  }
  try {
    const opts = parseArgs(argv);
    const params = parseModelList(readInputFile(opts.file, MAX_MODEL_FILE_BYTES, "model file"));
    const config: StepConfig = {
      ...DEFAULT_STEP_CONFIG,
      capMb: opts.capMb,
      firstBucketMb: opts.firstBucketMb,
      slowRank: opts.slowRank,
    };
    const result = runStep(params, config);
    const out = opts.json
      ? JSON.stringify(stepJson(params, result))
      : report(basename(opts.file), params, config, result);
    process.stdout.write(`${terminalText(out)}\n`);
    return 0;
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    process.stderr.write(`step: ${terminalLine(message)}\n`);
    return 2;
  }
}

process.exitCode = main(process.argv.slice(2));
