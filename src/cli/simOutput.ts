/**
 * What `npm run sim` prints of a Monte Carlo: the --json object (a public contract, README.md
 * "The command line") and the table, with the closed forms beside the means. Apart from
 * simCommand.ts, which reads the arguments and runs the seeds.
 */
import { selectedPolicies } from "../sim/policies/index.ts";
import { derived, type Scenario } from "../sim/scenario/index.ts";
import {
  BADPUT_CATEGORIES,
  type BadputCategory,
  type ClosedForms,
  type ClosedFormValue,
  type MetricsSummary,
  type MonteCarloResult,
  type SummarizedMetric,
  type Summary,
} from "../sim/types.ts";
import { echo } from "./echo.ts";

/**
 * ETTR as printed: at most 1. The engine sums R·Δt over every piece of a run, and that sum's
 * rounding can pass R·H by a few ulps (a 0.001-day run with no failure: 1.0000000000000002). The
 * excess is float rounding only, never time; the engine keeps those bits (version-1 links give
 * the numbers they were recorded with, src/sim/compat), the output does not show them.
 */
function atMostOne(s: Summary): Summary {
  return { mean: Math.min(1, s.mean), p5: Math.min(1, s.p5), p95: Math.min(1, s.p95) };
}

/**
 * The --json object: a public contract (README.md "The command line"), keys in this order (the scenario's selected
 * policies in display order, each with `badput.<category>`; `closedForm.policies.<key>`).
 */
export function resultJson(r: MonteCarloResult): MonteCarloResult {
  const out = { scenario: r.scenario, seeds: r.seeds } as MonteCarloResult;
  for (const { key } of selectedPolicies(r.scenario)) {
    const m = r[key] as MetricsSummary;
    out[key] = { ...m, ettr: atMostOne(m.ettr) };
  }
  out.closedForm = { ...r.closedForm, deprecated: DEPRECATED_FORMS };
  return out;
}

/**
 * Version 1's closed-form keys keep their numbers bit for bit (an old reader's output never
 * changes meaning); the output says, beside them, what each ignores and which key is right.
 */
export const DEPRECATED_FORMS: NonNullable<ClosedForms["deprecated"]> = {
  fixed:
    "deprecated: version 1's fixed-arrival arithmetic for any arrivals; ignores rollback, FTAR's step overhead and where it holds. Read fixedArrivals.",
  poissonSyncNoRollback:
    "deprecated: version 1's E[e^(−λD)] for any arrivals and checkpoints. Read poissonNoRollback.",
  metaFirstOrder:
    "deprecated: Meta's model clamped to [0, 1] outside its regime too. Read metaApproximation.",
};

/** Where the time goes (§4), one row per badput category, as a share of wall time. */
const BADPUT_LABEL: Record<BadputCategory, string> = {
  detection: "lost: detection",
  recovery: "lost: recovery",
  spareWait: "lost: waiting for spares",
  rejoin: "lost: rejoin",
  checkpointWrite: "lost: checkpoint writes",
  rolledBack: "lost: rolled back",
  degraded: "lost: degraded",
  overhead: "lost: step overhead",
  slow: "lost: slow hosts",
  outerSync: "lost: outer sync",
  convergence: "lost: convergence (1 − q)",
};

const ROWS: { metric: SummarizedMetric; label: string; format: (v: number) => string }[] = [
  { metric: "ettr", label: "ETTR", format: (v) => `${(100 * v).toFixed(1)}%` },
  { metric: "failures", label: "failures", format: (v) => group(v, 1) },
  { metric: "stallSeconds", label: "stall (h)", format: (v) => group(v / 3600, 1) },
  { metric: "stallSecondsPerFailure", label: "stall per failure (s)", format: (v) => group(v, 1) },
  { metric: "lostWorkSeconds", label: "rolled-back work (h)", format: (v) => group(v / 3600, 1) },
  { metric: "checkpoints", label: "checkpoints written", format: (v) => group(v, 1) },
  { metric: "degradedSeconds", label: "degraded (h)", format: (v) => group(v / 3600, 1) },
  { metric: "meanHealthyReplicas", label: "mean healthy replicas", format: (v) => group(v, 2) },
  { metric: "slowEpisodes", label: "slow episodes", format: (v) => group(v, 1) },
  { metric: "evictions", label: "evictions (in failures)", format: (v) => group(v, 1) },
];

const SLOW_METRICS: readonly SummarizedMetric[] = ["slowEpisodes", "evictions"];

/** §6: the slow episodes in a line (only when there are some). */
function slowLine(s: Scenario): string {
  const w = s.slow;
  const evict = w.evictAfterMinutes > 0 ? `evicted after ${w.evictAfterMinutes} min` : "never evicted";
  return `slow hosts: ${w.perHostDay} episodes per host-day, median ${w.medianMinutes} min (σ ${w.sigma}), ${w.factor}× slower, ${evict}`;
}

function group(v: number, digits: number): string {
  return v.toLocaleString("en-US", { maximumFractionDigits: digits });
}

function cell(s: Summary, format: (v: number) => string, seeds: number): string {
  return seeds === 1 ? format(s.mean) : `${format(s.mean)} [${format(s.p5)}, ${format(s.p95)}]`;
}

function pct(v: number): string {
  return `${(100 * v).toFixed(1)}%`;
}

export function resultTable(r: MonteCarloResult): string {
  const s = r.scenario;
  const d = derived(s);
  const slowOn = s.slow.perHostDay > 0;
  const fmt = (v: number) => v.toLocaleString("en-US");
  const mtbf = Number.isFinite(d.mtbfSeconds) ? `MTBF ${(d.mtbfSeconds / 60).toFixed(1)} min` : "no failures";
  const seeds =
    r.seeds === 1 ? `seed ${s.seed}` : `${fmt(r.seeds)} seeds from ${s.seed}: mean [p5, p95], nearest rank`;
  const header = [
    echo(s.name),
    `${fmt(s.cluster.gpus)} GPUs = ${fmt(d.hosts)} hosts × ${s.cluster.gpusPerHost}, ${fmt(s.cluster.replicas)} replicas; ` +
      `${fmt(s.training.days)} days; ${s.failures.perHostDay} failures per host-day (${mtbf}, ${s.failures.arrivals} arrivals)`,
    seeds,
    ...(slowOn ? [slowLine(s)] : []),
    "",
  ];
  const policies = selectedPolicies(s);
  const table: string[][] = [
    ["", ...policies.map((p) => p.label)],
    // §6's rows only where there are slow hosts: without them the table reads as it did.
    ...ROWS.filter((row) => slowOn || !SLOW_METRICS.includes(row.metric)).map(({ metric, label, format }) => [
      label,
      ...policies.map((p) => cell((r[p.key] as MetricsSummary)[metric], format, r.seeds)),
    ]),
    ...BADPUT_CATEGORIES.filter((b) => slowOn || b !== "slow").map((b) => [
      BADPUT_LABEL[b],
      ...policies.map((p) => cell((r[p.key] as MetricsSummary).badput[b], pct, r.seeds)),
    ]),
  ];
  const widths = table[0]!.map((_, c) => Math.max(...table.map((row) => row[c]!.length)));
  const lines = table.map((row) =>
    row.map((text, c) => (c === 0 ? text.padEnd(widths[c]!) : text.padStart(widths[c]!))).join("   "),
  );
  const cf = r.closedForm;
  const form = (v: ClosedFormValue) => (v.value === null ? `— (${v.note})` : `${pct(v.value)} (${v.note})`);
  const closed = [
    "",
    "closed forms:",
    `  fixed arrivals, sync        ${form(cf.fixedArrivals.synchronous)}`,
    `  fixed arrivals, FT-HSDP     ${form(cf.fixedArrivals.ftHsdp)}`,
    `  Poisson, sync, no rollback  ${form(cf.poissonNoRollback)}`,
    `  Poisson, sync, renewal      ${form(cf.syncRenewal)}`,
    `  Poisson, FT-HSDP            ${form(cf.ftFirstOrder)}`,
    `  Meta first-order (sync)     ${form(cf.metaApproximation)}`,
    ...policies.map((p) => {
      const f = cf.policies?.[p.key];
      return `  ${p.label.padEnd(26)}  ${f ? form(f) : "—"}`;
    }),
  ];
  return [...header, ...lines, ...closed].join("\n");
}
