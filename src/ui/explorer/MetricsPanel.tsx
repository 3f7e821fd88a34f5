/**
 * The details behind the headline cards: this seed's run and the Monte Carlo band for each
 * metric, side by side for both policies, and what the difference is worth in GPU-days.
 */
import type {
  MetricsSummary,
  MonteCarloResult,
  PolicyMetrics,
  RunResult,
  SummarizedMetric,
} from "../../sim/types.ts";
import { count, duration, pct } from "../format.ts";

interface Row {
  label: string;
  help: string;
  metric: SummarizedMetric;
  fmt: (v: number) => string;
  value: (m: PolicyMetrics) => number;
}

const ROWS: Row[] = [
  {
    label: "ETTR",
    help: "useful training ÷ wall time",
    metric: "ettr",
    fmt: (v) => pct(v),
    value: (m) => m.ettr,
  },
  {
    label: "Failures",
    help: "same trace for both",
    metric: "failures",
    fmt: (v) => count(v),
    value: (m) => m.failures,
  },
  {
    label: "Stall per failure",
    help: "whole job making no progress",
    metric: "stallSecondsPerFailure",
    fmt: duration,
    value: (m) => m.stallSecondsPerFailure,
  },
  { label: "Total stall", help: "", metric: "stallSeconds", fmt: duration, value: (m) => m.stallSeconds },
  {
    label: "Lost work",
    help: "training rolled back to a checkpoint (FT-HSDP: at job restarts only)",
    metric: "lostWorkSeconds",
    fmt: duration,
    value: (m) => m.lostWorkSeconds,
  },
  {
    label: "Degraded time",
    help: "training with a replica down",
    metric: "degradedSeconds",
    fmt: duration,
    value: (m) => m.degradedSeconds,
  },
  {
    label: "Mean healthy replicas",
    help: "time average",
    metric: "meanHealthyReplicas",
    fmt: (v) => count(v, 2),
    value: (m) => m.meanHealthyReplicas,
  },
  {
    label: "Checkpoints",
    help: "",
    metric: "checkpoints",
    fmt: (v) => count(v),
    value: (m) => m.checkpoints,
  },
  {
    label: "Job restarts",
    help: "sync: every failure; FT-HSDP: job-scope failures",
    metric: "jobRestarts",
    fmt: (v) => count(v),
    value: (m) => m.jobRestarts,
  },
  {
    label: "Spare waits",
    help: "sync: job waiting; FT-HSDP: replica-time waiting",
    metric: "spareWaitSeconds",
    fmt: duration,
    value: (m) => m.spareWaitSeconds,
  },
  {
    label: "Longest spare wait",
    help: "",
    metric: "longestSpareWaitSeconds",
    fmt: duration,
    value: (m) => m.longestSpareWaitSeconds,
  },
  {
    label: "Pool empty",
    help: "time with no spare host",
    metric: "poolEmptySeconds",
    fmt: duration,
    value: (m) => m.poolEmptySeconds,
  },
];

/** Per-cause rows (count and stall), only when the scenario lists a cause mix. */
function CauseRows({ run, mc }: { run: RunResult; mc: MonteCarloResult | null }) {
  const cell = (m: PolicyMetrics, s: MetricsSummary | null, i: number) => (
    <td>
      <span className="metric-run">
        {count(m.causeCount[i] ?? 0)} · {duration(m.causeStallSeconds[i] ?? 0)}
      </span>
      {s?.causes[i] ? (
        <span className="metric-band">
          {count(s.causes[i].count.mean, 1)} · {duration(s.causes[i].stallSeconds.mean)}
        </span>
      ) : null}
    </td>
  );
  return (
    <>
      {run.scenario.failures.causes.map((c, i) => (
        <tr key={`cause-${c.name}-${String(i)}`} data-testid={`cause-row-${String(i)}`}>
          <th scope="row">
            {c.name}
            <span className="muted"> · failures · stall ({c.scope} scope)</span>
          </th>
          {cell(run.synchronous, mc?.synchronous ?? null, i)}
          {cell(run.ftHsdp, mc?.ftHsdp ?? null, i)}
        </tr>
      ))}
    </>
  );
}

function band(s: MetricsSummary, r: Row): string {
  const m = s[r.metric];
  return `${r.fmt(m.mean)} (${r.fmt(m.p5)}–${r.fmt(m.p95)})`;
}

export function MetricsPanel({ run, mc }: { run: RunResult; mc: MonteCarloResult | null }) {
  const s = run.scenario;
  const delta = run.ftHsdp.ettr - run.synchronous.ettr;
  const gpuDays = delta * s.training.days * s.cluster.gpus;
  const mcFits = mc !== null && JSON.stringify(mc.scenario) === JSON.stringify(run.scenario);
  return (
    <div>
      <p className="explorer-lede" data-testid="ettr-difference">
        On this failure trace FT-HSDP turns <strong>{(delta * 100).toFixed(1)} points</strong> more of the
        wall time into training: about <strong>{count(gpuDays)} GPU-days</strong> over{" "}
        {count(s.training.days, 1)} days on {count(s.cluster.gpus)} GPUs.
      </p>
      <table className="metrics-table" data-testid="metrics-table">
        <caption className="visually-hidden">Metrics of both policies</caption>
        <thead>
          <tr>
            <th scope="col">Metric</th>
            <th scope="col">Synchronous</th>
            <th scope="col">FT-HSDP</th>
          </tr>
        </thead>
        <tbody>
          {ROWS.map((r) => (
            <tr key={r.metric}>
              <th scope="row">
                {r.label}
                {r.help && <span className="muted"> · {r.help}</span>}
              </th>
              <td>
                <span className="metric-run">{r.fmt(r.value(run.synchronous))}</span>
                {mcFits && <span className="metric-band">{band(mc.synchronous, r)}</span>}
              </td>
              <td>
                <span className="metric-run">{r.fmt(r.value(run.ftHsdp))}</span>
                {mcFits && <span className="metric-band">{band(mc.ftHsdp, r)}</span>}
              </td>
            </tr>
          ))}
          <CauseRows run={run} mc={mcFits ? mc : null} />
        </tbody>
      </table>
      <p className="muted small">
        Each cell: this seed's run; below it, the mean over {mc ? count(mc.seeds) : "…"} seeds with the
        5th–95th percentile range{mcFits ? "" : " (computing…)"}.
      </p>
    </div>
  );
}
