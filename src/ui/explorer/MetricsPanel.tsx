/**
 * The details behind the headline cards: this seed's run and the Monte Carlo band for each
 * metric, one column per policy of the registry (policies.ts), and what the difference is worth
 * in GPU-days.
 */
import type { ReactNode } from "react";
import { POLICIES } from "../../sim/policies.ts";
import type { MetricsSummary, MonteCarloResult, PolicyMetrics, RunResult } from "../../sim/types.ts";
import { count, duration } from "../format.ts";
import { METRIC_ROWS, type MetricRow } from "../metricRows.ts";

/** What a row shows in each policy's cell: this run's value, and the band when the Monte Carlo fits. */
interface RowSpec {
  key: string;
  head: ReactNode;
  testId?: string;
  run: (m: PolicyMetrics) => string;
  band: (s: MetricsSummary) => string | null;
}

/** The one row builder: a heading, then a cell per policy in registry order. */
function PolicyRow({ spec, run, mc }: { spec: RowSpec; run: RunResult; mc: MonteCarloResult | null }) {
  return (
    <tr data-testid={spec.testId}>
      <th scope="row">{spec.head}</th>
      {POLICIES.map(({ key }) => {
        const band = mc ? spec.band(mc[key]) : null;
        return (
          <td key={key}>
            <span className="metric-run">{spec.run(run[key])}</span>
            {band !== null && <span className="metric-band">{band}</span>}
          </td>
        );
      })}
    </tr>
  );
}

function metricSpec(r: MetricRow): RowSpec {
  return {
    key: r.metric,
    head: (
      <>
        {r.label}
        {r.help && <span className="muted"> · {r.help}</span>}
      </>
    ),
    run: (m) => r.fmt(m[r.metric]),
    band: (s) => {
      const b = s[r.metric];
      return `${r.fmt(b.mean)} (${r.fmt(b.p5)}–${r.fmt(b.p95)})`;
    },
  };
}

const METRIC_SPECS: readonly RowSpec[] = METRIC_ROWS.map(metricSpec);

/** Per-cause rows (count and stall), only when the scenario lists a cause mix. */
function causeSpecs(run: RunResult): RowSpec[] {
  return run.scenario.failures.causes.map((c, i) => ({
    key: `cause-${c.name}-${String(i)}`,
    testId: `cause-row-${String(i)}`,
    head: (
      <>
        {c.name}
        <span className="muted"> · failures · stall ({c.scope} scope)</span>
      </>
    ),
    run: (m) => `${count(m.causeCount[i] ?? 0)} · ${duration(m.causeStallSeconds[i] ?? 0)}`,
    band: (s) => {
      const cause = s.causes[i];
      return cause ? `${count(cause.count.mean, 1)} · ${duration(cause.stallSeconds.mean)}` : null;
    },
  }));
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
        <caption className="visually-hidden">Metrics of every policy</caption>
        <thead>
          <tr>
            <th scope="col">Metric</th>
            {POLICIES.map((p) => (
              <th key={p.key} scope="col">
                {p.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {[...METRIC_SPECS, ...causeSpecs(run)].map((spec) => (
            <PolicyRow key={spec.key} spec={spec} run={run} mc={mcFits ? mc : null} />
          ))}
        </tbody>
      </table>
      <p className="muted small">
        Each cell: this seed's run; below it, the mean over {mc ? count(mc.seeds) : "…"} seeds with the
        5th–95th percentile range{mcFits ? "" : " (computing…)"}.
      </p>
    </div>
  );
}
