/**
 * The Trace panel's figures for the open traces: the verdict, each rank's steps, its temporal and
 * kernel-type breakdowns (HTA's), and the model beside one step of the chosen rank (TraceModel).
 */
import type { TraceView } from "../../worker/traceApi.ts";
import { TraceModel, type TraceModelProps } from "./TraceModel.tsx";
import { ms } from "./units.ts";

const f2 = (x: number | null) => (x === null ? "—" : x.toFixed(2));

export function TraceFigures(props: TraceModelProps) {
  const { view } = props;
  return (
    <>
      <p className="trace-verdict" data-testid="trace-verdict">
        {view.verdict}
      </p>
      <StepTable view={view} />
      <Breakdowns view={view} />
      <ul className="muted step-small trace-notes">
        {view.ranks.flatMap((r) =>
          r.notes.map((n) => (
            <li key={`${r.rank}:${n}`}>
              rank {r.rank}: {n}
            </li>
          )),
        )}
        {view.warnings.map((w) => (
          <li key={w}>{w}</li>
        ))}
        {view.lateStart.map((l) => (
          <li key={`late${l.rank}`}>
            rank {l.rank} starts the same collective {ms(l.meanMs)} late on average (at most {ms(l.maxMs)},
            over {l.calls} collectives) behind the earliest rank
          </li>
        ))}
      </ul>
      <TraceModel {...props} />
    </>
  );
}

function StepTable({ view }: { view: TraceView }) {
  return (
    <div className="trace-table-wrap">
      <table className="trace-table" data-testid="trace-table">
        <thead>
          <tr>
            <th>rank</th>
            <th>step</th>
            <th>step time</th>
            <th>communication</th>
            <th>hidden (overlap)</th>
            <th>exposed</th>
          </tr>
        </thead>
        <tbody>
          {view.ranks.flatMap((r) => [
            ...r.steps.map((s) => (
              <tr key={`${r.rank}-${s.name}`} data-rank={r.rank} data-step={s.name}>
                <td>{r.rank}</td>
                <td>{s.name}</td>
                <td>{ms(s.ms)}</td>
                <td>{ms(s.commMs)}</td>
                <td className="trace-overlap">{s.overlapPct === null ? "—" : `${f2(s.overlapPct)} %`}</td>
                <td>{ms(s.exposedCommMs)}</td>
              </tr>
            )),
            ...(r.stepCount > r.steps.length
              ? [
                  <tr key={`${r.rank}-more`} className="muted" data-rank={r.rank} data-step="more">
                    <td>{r.rank}</td>
                    <td colSpan={5}>
                      … and {(r.stepCount - r.steps.length).toLocaleString("en-US")} more steps (the first{" "}
                      {r.steps.length} are listed; the totals below count all{" "}
                      {r.stepCount.toLocaleString("en-US")})
                    </td>
                  </tr>,
                ]
              : []),
            <tr key={`${r.rank}-all`} className="trace-rank-total" data-rank={r.rank} data-step="all">
              <td>{r.rank}</td>
              <td>all kept steps · {r.device}</td>
              <td />
              <td>{ms(r.commMs)}</td>
              <td className="trace-overlap">{r.overlapPct === null ? "—" : `${f2(r.overlapPct)} %`}</td>
              <td />
            </tr>,
          ])}
        </tbody>
      </table>
    </div>
  );
}

/** HTA's temporal breakdown (idle / compute / non-compute) and kernel-type breakdown, per rank. */
function Breakdowns({ view }: { view: TraceView }) {
  const types = new Set<string>();
  for (const r of view.ranks) for (const k of Object.keys(r.kernelTypes)) types.add(k);
  return (
    <div className="trace-table-wrap">
      <table className="trace-table trace-breakdown" data-testid="trace-breakdown">
        <caption className="step-small">
          Where each rank's GPU time went, over its kept steps (HTA's temporal and kernel-type breakdowns)
        </caption>
        <thead>
          <tr>
            <th colSpan={2} />
            <th colSpan={3}>temporal, share of the span</th>
            <th colSpan={types.size}>kernel types, share of the GPU's busy time</th>
          </tr>
          <tr>
            <th>rank</th>
            <th>span</th>
            <th title="No kernel running">idle</th>
            <th title="Compute kernels running">compute</th>
            <th title="Only communication or memory kernels running">non-compute</th>
            {[...types].map((t) => (
              <th key={t}>{t.toLowerCase()}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {view.ranks.map((r) => (
            <tr key={r.rank} data-rank={r.rank}>
              <td>{r.rank}</td>
              <td>{r.temporal === null ? "—" : ms(r.temporal.kernelMs)}</td>
              <td data-part="idle">{r.temporal === null ? "—" : `${r.temporal.idlePct} %`}</td>
              <td data-part="compute">{r.temporal === null ? "—" : `${r.temporal.computePct} %`}</td>
              <td data-part="non-compute">{r.temporal === null ? "—" : `${r.temporal.nonComputePct} %`}</td>
              {[...types].map((t) => (
                <td key={t}>{r.kernelTypes[t] === undefined ? "—" : `${r.kernelTypes[t]?.pct} %`}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
