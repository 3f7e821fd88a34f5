/**
 * What `npm run trace -- --compare` prints and the Trace panel's comparison shows, from the same
 * SetDiff: the sentence saying which part of the step explains most of the change, the JSON, and
 * the text table.
 */
import { OP_BUCKETS, type OpBucket, type OpRow } from "./opsDiff.ts";
import { ADDITIVE, PART_NAME, type Part, type StepSplit } from "./stepSplit.ts";
import type { RankDiff, SetDiff } from "./traceDiff.ts";

/** Below this share of the control step, a change in step time is called none. */
const SAME_FRACTION = 1e-3;

const msText = (x: number) => {
  const a = Math.abs(x);
  return a >= 100 ? `${x.toFixed(0)} ms` : a >= 1 ? `${x.toFixed(2)} ms` : `${x.toFixed(3)} ms`;
};
/** A change with its sign; one below half a nanosecond (float noise) is none. */
const signed = (x: number) =>
  Math.abs(x) < 5e-7 ? "±0.000 ms" : `${x > 0 ? "+" : "−"}${msText(Math.abs(x))}`;

/** The part whose change goes the way the step's does and is the largest. */
export function mainPart(delta: StepSplit): Part {
  const sign = Math.sign(delta.stepMs) || 1;
  let best: Part = ADDITIVE[0];
  for (const p of ADDITIVE) if (sign * delta[p] > sign * delta[best]) best = p;
  return best;
}

/** The rank whose change in that part goes furthest the step's way. */
function rankMost(ranks: readonly RankDiff[], part: Part, sign: number): RankDiff | null {
  let best: RankDiff | null = null;
  for (const r of ranks) if (best === null || sign * r.delta[part] > sign * best.delta[part]) best = r;
  return best;
}

/** One sentence, from the numbers: how the step changed, and which part explains most of it. */
export function diffSentence(d: SetDiff): string {
  if (d.pairs === 0) return "Nothing to compare: no rank has a step in both sets.";
  const c = d.control.stepMs;
  const t = d.test.stepMs;
  const steps = new Set(d.ranks.map((r) => r.steps.length));
  const per = [...steps][0] ?? 0;
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? "" : "s"}`;
  const over =
    steps.size === 1
      ? `mean over ${plural(d.ranks.length, "rank")} × ${plural(per, "step")}`
      : `mean over ${d.pairs} matched rank steps`;
  const delta = d.delta.stepMs;
  if (Math.abs(delta) <= SAME_FRACTION * Math.abs(c)) {
    const moved = mainPart({ ...d.delta, stepMs: 1 });
    const note =
      Math.abs(d.delta[moved]) <= SAME_FRACTION * Math.abs(c)
        ? "and no part of it moved"
        : `though ${PART_NAME[moved]} moved by ${signed(d.delta[moved])}`;
    return `Test steps take as long as control ones (${msText(c)} → ${msText(t)}, ${over}), ${note}.`;
  }
  const part = mainPart(d.delta);
  const sign = Math.sign(delta);
  const pct = c > 0 ? ` ${delta > 0 ? "+" : "−"}${((100 * Math.abs(delta)) / c).toFixed(1)} %,` : "";
  const head = `Test steps take ${msText(Math.abs(delta))} ${delta > 0 ? "longer" : "less"} than control (${msText(c)} → ${msText(t)},${pct} ${over})`;
  const share = `${signed(d.delta[part])} of ${signed(delta)}`;
  const rank = d.ranks.length > 1 ? rankMost(d.ranks, part, sign) : null;
  const where = rank === null ? "" : `, most on rank ${rank.rank} (${signed(rank.delta[part])} a step)`;
  return `${head}; ${PART_NAME[part]} explains most of it (${share})${where}.`;
}

function splitJson(s: StepSplit) {
  return {
    stepMs: s.stepMs,
    computeMs: s.computeMs,
    commMs: s.commMs,
    overlapMs: s.overlapMs,
    exposedCommMs: s.exposedCommMs,
    memoryMs: s.memoryMs,
    idleMs: s.idleMs,
  };
}

export function bucketsOf(ops: readonly OpRow[]): Record<OpBucket, string[]> {
  const out = Object.fromEntries(OP_BUCKETS.map((b) => [b, [] as string[]])) as Record<OpBucket, string[]>;
  for (const o of ops) out[o.bucket].push(o.label);
  return out;
}

export function diffJson(d: SetDiff) {
  return {
    sentence: diffSentence(d),
    pairs: d.pairs,
    control: splitJson(d.control),
    test: splitJson(d.test),
    delta: splitJson(d.delta),
    ranks: d.ranks.map((r) => ({
      rank: r.rank,
      controlFile: r.controlFile,
      testFile: r.testFile,
      mode: r.mode,
      main: mainPart(r.delta),
      control: splitJson(r.control),
      test: splitJson(r.test),
      delta: splitJson(r.delta),
      controlOverlapPct: r.controlOverlapPct,
      testOverlapPct: r.testOverlapPct,
      steps: r.steps.map((s) => ({
        index: s.index,
        controlName: s.controlName,
        testName: s.testName,
        control: splitJson(s.control),
        test: splitJson(s.test),
        delta: splitJson(s.delta),
      })),
      notes: r.notes,
    })),
    ops: d.ops.map((o) => ({
      name: o.label,
      kind: o.cls,
      variants: o.variants,
      control_counts: o.control.count,
      test_counts: o.test.count,
      control_total_duration: o.control.us,
      test_total_duration: o.test.us,
      diff_counts: o.diffCounts,
      diff_duration: o.diffUs,
      bucket: o.bucket,
    })),
    opsDiff: bucketsOf(d.ops),
    notes: d.notes,
  };
}

const f3 = (x: number | null) => (x === null ? "—" : x.toFixed(3));
const pct = (x: number | null) => (x === null ? "—" : `${x.toFixed(1)} %`);

function splitLine(label: string, s: StepSplit): string {
  return `  ${label.padEnd(8)} step ${f3(s.stepMs).padStart(10)}  compute ${f3(s.computeMs).padStart(10)}  exposed comm ${f3(s.exposedCommMs).padStart(10)}  memory ${f3(s.memoryMs).padStart(8)}  idle ${f3(s.idleMs).padStart(10)}  (comm ${f3(s.commMs)}, hidden ${f3(s.overlapMs)}) ms`;
}

/** Rows of the ops table the text report prints: the largest changes. */
const TEXT_OPS = 25;

export function diffText(d: SetDiff): string {
  const lines = [diffSentence(d)];
  lines.push(`mean over ${d.pairs} matched (rank, step) pairs:`);
  lines.push(splitLine("control", d.control), splitLine("test", d.test), splitLine("change", d.delta));
  for (const r of d.ranks) {
    lines.push(
      `rank ${r.rank} (${r.controlFile} → ${r.testFile}): ${r.steps.length} steps, overlap ${pct(r.controlOverlapPct)} → ${pct(r.testOverlapPct)}; ${PART_NAME[mainPart(r.delta)]} explains most of its change`,
    );
    lines.push(splitLine("control", r.control), splitLine("test", r.test), splitLine("change", r.delta));
    for (const s of r.steps)
      lines.push(
        `    ${`${s.controlName} → ${s.testName}`.padEnd(36)} ${signed(s.delta.stepMs).padStart(12)} step, compute ${signed(s.delta.computeMs)}, exposed comm ${signed(s.delta.exposedCommMs)}, idle ${signed(s.delta.idleMs)}`,
      );
    for (const n of r.notes) lines.push(`  note: ${n}`);
  }
  const b = bucketsOf(d.ops);
  lines.push(
    `kernels and ops (HTA ops_diff): ${OP_BUCKETS.map((k) => `${b[k].length} ${k}`).join(", ")}; the ${Math.min(TEXT_OPS, d.ops.length)} largest changes in total duration:`,
  );
  for (const o of d.ops.slice(0, TEXT_OPS))
    lines.push(
      `  ${o.bucket.padEnd(9)} ${String(o.control.count).padStart(7)} → ${String(o.test.count).padEnd(7)} ${(o.diffUs / 1e3).toFixed(3).padStart(10)} ms  ${o.label.slice(0, 100)}`,
    );
  for (const n of d.notes) lines.push(`note: ${n}`);
  return lines.join("\n");
}
