/**
 * `npm run step -- <model.json | share link> [options] [--json]` (STEP_HELP lists them)
 *
 * Prints PyTorch DDP's gradient buckets for a model's `named_parameters()` list (plain list or the
 * `{"parameters": [...]}` wrapper) in the order they are all-reduced, and the step they make
 * (DDP over 4 × 8 GPUs by default, see presetCatalog.ts). A One step share link gives its model
 * and settings instead (a model file beside it replaces its model); flags then set the buckets,
 * the nodes, the ring's link (α, B: what `npm run trace` fits) and the compute times. The report
 * says which compute times it used and where they come from. Bad input: one line on stderr, exit 2.
 *
 * The first bucket is capped at 1 MiB (docs/model.md §2, PyTorch's `_DEFAULT_FIRST_BUCKET_BYTES`).
 * Newer PyTorch (pytorch/pytorch#121640) caps it at `bucket_cap_mb` instead when the user passes
 * `bucket_cap_mb` explicitly: give `--first-bucket-mb` the same value to reproduce that.
 *
 * `--slow-compute F` / `--slow-link F` make one rank slow (src/step/slowRank.ts): its backward F×
 * as long, or its link on the all-reduce ring at 1/F of its bandwidth; the step is then a healthy
 * GPU's, and the report says what the slow rank added.
 */
import { LinkError } from "../link/linkError.ts";
import type { StepSettings } from "../link/stepLink.ts";
import { decodeStepLink, looksLikeStepLink } from "../link/stepShareLink.ts";
import { MIB } from "../step/bucketAssignment.ts";
import { DEFAULT_STEP_CONFIG } from "../step/presetCatalog.ts";
import type { SlowRank } from "../step/slowRank.ts";
import { slowRankSentence } from "../step/slowRankText.ts";
import { STEP_RANGES, type StepRange } from "../step/stepRanges.ts";
import { runStep, type StepConfig, type StepResult } from "../step/stepTimeline.ts";
import { echo, terminalLine, terminalText } from "./echo.ts";
import { STEP_HELP, wantsHelp } from "./help.ts";
import { readInputFile } from "./inputFile.ts";
import { linkWords, resolveStep, type StepFlags, type Stepped } from "./stepInput.ts";

/** A 200,000-parameter list printed by PyTorch is about 20 MB; past 64 MiB it is not a model list. */
export const MAX_MODEL_FILE_BYTES = 64 * 1024 * 1024;

const USAGE = STEP_HELP.slice(0, STEP_HELP.indexOf("\n"));

class UsageError extends Error {}

interface Options {
  file: string | null;
  link: string | null;
  flags: StepFlags;
  json: boolean;
}

/**
 * A number in its range of STEP_RANGES, the table the page's knob and the link's decoder read
 * too, so the CLI takes what a link can carry: `what` names it in the refusal. A flag in other
 * units than the table's (µs, GB/s) converts its bounds and its value as the page's knob does.
 */
function inRange(
  flag: string,
  raw: string | undefined,
  range: StepRange,
  what: string,
  unit = IDENTITY,
): number {
  const n = Number(raw);
  const [min, max] = [unit.shown(range.min), unit.shown(range.max)];
  const whole = range.integer === true;
  if (
    raw === undefined ||
    raw.trim() === "" ||
    !Number.isFinite(n) ||
    n < min ||
    n > max ||
    (whole && !Number.isInteger(n))
  ) {
    throw new UsageError(
      `${flag} needs ${what} in [${min}, ${max}], got ${raw === undefined ? "nothing" : `"${echo(raw)}"`}`,
    );
  }
  return unit.stored(n);
}

interface Unit {
  shown(stored: number): number;
  stored(shown: number): number;
}
const IDENTITY: Unit = { shown: (v) => v, stored: (v) => v };
/** As StepControls.tsx's α knob (µs) and B knob (GB/s). */
const MICROSECONDS: Unit = { shown: (s) => s * 1e6, stored: (us) => us / 1e6 };
const GB_PER_SECOND: Unit = { shown: (b) => b / 1e9, stored: (gb) => gb * 1e9 };

type NumberKey = Exclude<keyof StepFlags, "slowRank">;
/** Each flag that takes a number: its field, range and words, and its unit where not the table's. */
const NUMBER_FLAGS: Record<string, { key: NumberKey; range: StepRange; what: string; unit?: Unit }> = {
  "--cap-mb": { key: "capMb", range: STEP_RANGES.capMb, what: "a number of MiB" },
  "--first-bucket-mb": { key: "firstBucketMb", range: STEP_RANGES.firstBucketMb, what: "a number of MiB" },
  "--nodes": { key: "nodes", range: STEP_RANGES.replicas, what: "a whole number of nodes" },
  "--gpus-per-node": {
    key: "gpusPerNode",
    range: STEP_RANGES.gpusPerReplica,
    what: "a whole number of GPUs",
  },
  "--alpha": { key: "alpha", range: STEP_RANGES.alphaSeconds, what: "a latency in µs", unit: MICROSECONDS },
  "--bandwidth": {
    key: "bandwidth",
    range: STEP_RANGES.bandwidthBytesPerSecond,
    what: "a bandwidth in GB/s",
    unit: GB_PER_SECOND,
  },
  "--forward-ms": { key: "forwardMs", range: STEP_RANGES.computeMs, what: "a time in ms" },
  "--backward-ms": { key: "backwardMs", range: STEP_RANGES.computeMs, what: "a time in ms" },
  "--optimizer-ms": { key: "optimizerMs", range: STEP_RANGES.computeMs, what: "a time in ms" },
};

export function parseArgs(argv: readonly string[]): Options {
  let file: string | null = null;
  let link: string | null = null;
  const flags: StepFlags = {};
  let json = false;
  const given = new Set<string>();
  const slow = (kind: SlowRank["kind"], flag: string, raw: string | undefined) => {
    if (flags.slowRank !== undefined)
      throw new UsageError(`one slow rank at a time: ${flag} after --slow-${flags.slowRank.kind}`);
    flags.slowRank = { kind, factor: inRange(flag, raw, STEP_RANGES.slowFactor, "a slowdown factor") };
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? arg.split("=", 2) : [arg, undefined];
    const value = () => inline ?? argv[++i];
    const number = flag === undefined ? undefined : NUMBER_FLAGS[flag];
    if (number && flag) {
      if (given.has(flag)) throw new UsageError(`${flag} is given twice`);
      given.add(flag);
      flags[number.key] = inRange(flag, value(), number.range, number.what, number.unit);
    } else if (flag === "--json") json = true;
    else if (flag === "--slow-compute") slow("compute", flag, value());
    else if (flag === "--slow-link") slow("link", flag, value());
    else if (flag?.startsWith("-")) throw new UsageError(`unknown option ${echo(flag)}; ${USAGE}`);
    else if (looksLikeStepLink(arg)) {
      if (link !== null) throw new UsageError(`one share link expected, got a second: ${echo(arg)}`);
      link = arg;
    } else if (file === null) file = arg;
    else throw new UsageError(`one model file expected, got a second: ${echo(arg)}`);
  }
  if (file === null && link === null) throw new UsageError(USAGE);
  return { file, link, flags, json };
}

export function stepJson(s: Stepped, r: StepResult): unknown {
  const { params } = s;
  const t = r.overlapped;
  const c = s.config.compute;
  const ring = s.config.parallel[s.ringLink];
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
    // What the step was computed with: the compute times and where they come from, the ring's link.
    compute: {
      forwardMs: c.forwardMs,
      backwardMs: c.backwardMs,
      optimizerMs: c.optimizerMs,
      source: s.computeSource,
    },
    ringLink: { id: ring.id, alpha: ring.alpha, bandwidth: ring.bandwidth },
    // Only with a slow rank: what it added (without one, the output is as it always was).
    ...(r.slowRank ? { slowRank: r.slowRank } : {}),
  };
}

const mib = (bytes: number) => `${(bytes / MIB).toFixed(2)} MiB`;
const msText = (v: number) => `${Number(v.toFixed(3))} ms`;

function report(s: Stepped, r: StepResult): string {
  const { params, config } = s;
  const total = params.reduce((sum, p) => sum + p.bytes, 0);
  const c = config.compute;
  const lines = [
    `${echo(s.name)}: ${params.length} parameters, ${mib(total)} of gradients`,
    `compute per step (one GPU): forward ${msText(c.forwardMs)} + backward ${msText(c.backwardMs)} + optimizer ${msText(c.optimizerMs)} = ${msText(c.forwardMs + c.backwardMs + c.optimizerMs)}, ${s.computeSource}; set them with --forward-ms, --backward-ms, --optimizer-ms`,
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
    `step (${p.mode.toUpperCase()}, ${p.replicas} × ${p.gpusPerReplica} GPUs, ring on ${linkWords(p[s.ringLink])}): ` +
      `${m.stepMs.toFixed(2)} ms vs ${r.baselineMetrics.stepMs.toFixed(2)} ms without overlap; ` +
      `communication ${m.commMs.toFixed(2)} ms, exposed ${m.exposedCommMs.toFixed(2)} ms, overlap ratio ${m.overlapRatio.toFixed(3)}`,
  );
  const slow = slowRankSentence(config, r);
  if (slow) lines.push(slow);
  return lines.join("\n");
}

function readLink(link: string | null): StepSettings | null {
  if (link === null) return null;
  try {
    return decodeStepLink(link);
  } catch (e) {
    if (e instanceof LinkError) throw new UsageError(`bad share link: ${e.message}`);
    throw e;
  }
}

function main(argv: readonly string[]): number {
  if (wantsHelp(argv)) {
    process.stdout.write(STEP_HELP);
    return 0;
  }
  try {
    const opts = parseArgs(argv);
    const path = opts.file;
    const file =
      path === null ? null : { path, read: () => readInputFile(path, MAX_MODEL_FILE_BYTES, "model file") };
    const stepped = resolveStep(readLink(opts.link), file, DEFAULT_STEP_CONFIG, opts.flags);
    const config: StepConfig = stepped.config;
    const result = runStep(stepped.params, config);
    const out = opts.json ? JSON.stringify(stepJson(stepped, result)) : report(stepped, result);
    process.stdout.write(`${terminalText(out)}\n`);
    return 0;
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    process.stderr.write(`step: ${terminalLine(message)}\n`);
    return 2;
  }
}

process.exitCode = main(process.argv.slice(2));
