/**
 * The details behind the headline cards: this seed's run and the Monte Carlo band for each
 * metric, one column per policy the run selected (its `policies`, in its order), and what
 * FT-HSDP's difference from synchronous training is worth in GPU-days when both ran.
 */
import type { ReactNode } from "react";
import { type Policy, selectedPolicies } from "../../sim/policies/index.ts";
import type { MetricsSummary, MonteCarloResult, PolicyMetrics, RunResult } from "../../sim/types.ts";
import { count, duration } from "../format.ts";
import { hasRounds, METRIC_ROWS, type MetricRow } from "../metricRows.ts";

/** What a row shows in each policy's cell: this run's value, and the band when the Monte Carlo fits. */
interface RowSpec {
  key: string;
  head: ReactNode;
  testId?: string;
  run: (m: PolicyMetrics) => string;
  band: (s: MetricsSummary) => string | null;
}

/** The one row builder: a heading, then a cell per selected policy in display order. */
function PolicyRow({
  spec,
  run,
  mc,
  policies,
}: {
  spec: RowSpec;
  run: RunResult;
  mc: MonteCarloResult | null;
  policies: readonly Policy[];
}) {
  return (
    <tr data-testid={spec.testId}>
      <th scope="row">{spec.head}</th>
      {policies.map(({ key }) => {
        const m = run[key];
        const summary = mc?.[key];
        const band = summary ? spec.band(summary) : null;
        return (
          <td key={key}>
            <span className="metric-run">{m ? spec.run(m) : "…"}</span>
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

const METRIC_SPECS: readonly RowSpec[] = METRIC_ROWS.filter((r) => !r.rounds).map(metricSpec);
const ROUND_SPECS: readonly RowSpec[] = METRIC_ROWS.filter((r) => r.rounds).map(metricSpec);

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

/** FT-HSDP against synchronous training on this trace, in points and GPU-days: only when both ran. */
function DifferenceLede({ run }: { run: RunResult }) {
  const s = run.scenario;
  if (!run.synchronous || !run.ftHsdp) return null;
  const delta = run.ftHsdp.ettr - run.synchronous.ettr;
  const gpuDays = delta * s.training.days * s.cluster.gpus;
  return (
    <p className="explorer-lede" data-testid="ettr-difference">
      On this failure trace FT-HSDP turns <strong>{(delta * 100).toFixed(1)} points</strong> more of the wall
      time into training: about <strong>{count(gpuDays)} GPU-days</strong> over {count(s.training.days, 1)}{" "}
      days on {count(s.cluster.gpus)} GPUs.
    </p>
  );
}

export function MetricsPanel({ run, mc }: { run: RunResult; mc: MonteCarloResult | null }) {
  const s = run.scenario;
  const policies = selectedPolicies(s);
  const mcFits = mc !== null && JSON.stringify(mc.scenario) === JSON.stringify(run.scenario);
  return (
    <div>
      <DifferenceLede run={run} />
      <table className="metrics-table" data-testid="metrics-table">
        <caption className="visually-hidden">Metrics of every policy</caption>
        <thead>
          <tr>
            <th scope="col">Metric</th>
            {policies.map((p) => (
              <th key={p.key} scope="col">
                {p.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {[
            ...METRIC_SPECS,
            ...(hasRounds(policies.map((p) => run[p.key])) ? ROUND_SPECS : []),
            ...causeSpecs(run),
          ].map((spec) => (
            <PolicyRow key={spec.key} spec={spec} run={run} mc={mcFits ? mc : null} policies={policies} />
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
