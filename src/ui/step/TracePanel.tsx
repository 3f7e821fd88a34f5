/**
 * The Trace panel: open one PyTorch profiler trace per rank, see each step's communication and
 * how much of it computation hides (as Holistic Trace Analysis measures it), and the step model
 * beside one measured step, with the α–β link fitted to the trace's own all-reduces.
 * Reading and measuring happen in the trace worker; a file that fails says why in place and
 * leaves the others open.
 */
import { proxy } from "comlink";
import { useEffect, useState } from "react";
import { useStepStore } from "../../state/stepStore.ts";
import { traceWorker } from "../../state/traceClient.ts";
import type { Link } from "../../step/collectiveCost.ts";
import type { TraceView } from "../../worker/traceApi.ts";
import { Panel } from "../boundary/Panel.tsx";
import { TraceCompare } from "./TraceCompare.tsx";
import { TraceGantt } from "./TraceGantt.tsx";
import { bytes, formatBytesPerSecond, ms } from "./units.ts";
import "./trace.css";

interface OpenFile {
  ticket: number;
  name: string;
  state: "reading" | "open" | "failed";
  done: number;
  total: number;
  error?: string;
}

const f2 = (x: number | null) => (x === null ? "—" : x.toFixed(2));

/** The link the step model's all-reduce runs on: across nodes unless the job is one node. */
function activeLink(parallel: { mode: string; replicas: number }): "intraLink" | "interLink" {
  return parallel.mode === "ddp" && parallel.replicas <= 1 ? "intraLink" : "interLink";
}

export function TracePanel() {
  const [files, setFiles] = useState<OpenFile[]>([]);
  const [allSteps, setAllSteps] = useState(false);
  const [stepIndex, setStepIndex] = useState(0);
  const [view, setView] = useState<TraceView | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const parallel = useStepStore((s) => s.config.parallel);
  const setLink = useStepStore((s) => s.setLink);
  const which = activeLink(parallel);
  const link: Link = parallel[which];
  const openIds = files.filter((f) => f.state === "open").map((f) => f.ticket);
  const openKey = openIds.join(",");

  useEffect(() => {
    const ids = openKey === "" ? [] : openKey.split(",").map(Number);
    if (ids.length === 0) {
      setView(null);
      setProblem(null);
      return;
    }
    let live = true;
    void traceWorker()
      .traceMeasure(ids, allSteps, stepIndex, link)
      .then((r) => {
        if (!live) return;
        if (r.ok) {
          setView(r.view);
          setProblem(null);
        } else {
          setView(null);
          setProblem(r.error);
        }
      });
    return () => {
      live = false;
    };
  }, [openKey, allSteps, stepIndex, link]);

  const patch = (ticket: number, p: Partial<OpenFile>) =>
    setFiles((fs) => fs.map((f) => (f.ticket === ticket ? { ...f, ...p } : f)));

  async function open(list: FileList | null) {
    if (list === null) return;
    const api = traceWorker();
    for (const file of Array.from(list)) {
      const ticket = await api.traceTicket();
      setFiles((fs) => [...fs, { ticket, name: file.name, state: "reading", done: 0, total: file.size }]);
      void api
        .traceOpen(
          ticket,
          file,
          file.name,
          proxy((done: number, total: number) => patch(ticket, { done, total })),
        )
        .then((r) => patch(ticket, r.ok ? { state: "open" } : { state: "failed", error: r.error }));
    }
  }

  function close(f: OpenFile) {
    if (f.state === "reading") void traceWorker().traceCancel(f.ticket);
    else if (f.state === "open") void traceWorker().traceClose(f.ticket);
    setFiles((fs) => fs.filter((x) => x.ticket !== f.ticket));
  }

  return (
    <Panel what="The trace panel" className="panel trace-panel" aria-label="Trace">
      <div className="step-section-head">
        <h3>Trace: measure your own step</h3>
        <span className="muted step-small">
          PyTorch profiler traces (Kineto .json or .json.gz, one per rank), measured as Holistic Trace
          Analysis does
        </span>
      </div>
      <div className="trace-controls">
        <label className="trace-open">
          Open traces…
          <input
            type="file"
            multiple
            accept=".json,.gz,application/json,application/gzip"
            aria-label="Open trace files"
            onChange={(e) => {
              void open(e.currentTarget.files);
              e.currentTarget.value = "";
            }}
          />
        </label>
        <label>
          <input type="checkbox" checked={allSteps} onChange={(e) => setAllSteps(e.currentTarget.checked)} />{" "}
          Keep the last step (HTA drops it)
        </label>
      </div>
      {files.length > 0 && (
        <ul className="trace-files">
          {files.map((f) => (
            <li key={f.ticket} data-state={f.state}>
              <span className="trace-file-name">{f.name}</span>
              {f.state === "reading" && (
                <progress value={f.done} max={Math.max(1, f.total)} aria-label={`Reading ${f.name}`} />
              )}
              {f.state === "failed" && (
                <span className="trace-error" role="alert">
                  {f.error}
                </span>
              )}
              <button type="button" className="secondary" onClick={() => close(f)}>
                {f.state === "reading" ? "Cancel" : "Close"}
              </button>
            </li>
          ))}
        </ul>
      )}
      {problem && (
        <p className="trace-error" role="alert">
          {problem}
        </p>
      )}
      {view && (
        <TraceFigures
          view={view}
          stepIndex={stepIndex}
          onStep={setStepIndex}
          onUseFit={(a, b) => setLink(which, { alpha: a, bandwidth: b })}
          link={link}
        />
      )}
      <TraceCompare controlIds={openIds} allSteps={allSteps} />
    </Panel>
  );
}

function TraceFigures({
  view,
  stepIndex,
  onStep,
  onUseFit,
  link,
}: {
  view: TraceView;
  stepIndex: number;
  onStep: (i: number) => void;
  onUseFit: (alpha: number, bandwidth: number) => void;
  link: Link;
}) {
  const fit = view.fit;
  const fitted = fit.ok && link.alpha === fit.alpha && link.bandwidth === fit.bandwidth;
  const beside = view.beside;
  return (
    <>
      <p className="trace-verdict" data-testid="trace-verdict">
        {view.verdict}
      </p>
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
      <div className="trace-model">
        <div className="step-section-head">
          <h4>The model beside the measurement</h4>
          {view.stepNames.length > 1 && (
            <label className="step-small">
              step{" "}
              <select
                value={Math.min(stepIndex, view.stepNames.length - 1)}
                onChange={(e) => onStep(Number(e.currentTarget.value))}
              >
                {view.stepNames.map((n, i) => (
                  <option key={n} value={i}>
                    {n}
                  </option>
                ))}
              </select>
            </label>
          )}
        </div>
        {beside?.ok ? (
          <>
            <p className="step-small" data-testid="trace-model-error">
              {beside.beside.step} on rank {view.ranks[0]?.rank}: the model ({link.label}, α{" "}
              {(link.alpha * 1e6).toFixed(2)} µs, {formatBytesPerSecond(link.bandwidth)}) predicts{" "}
              {ms(beside.beside.predicted.stepMs)} and {f2(beside.beside.predicted.overlapPct)} % hidden;
              measured {ms(beside.beside.measured.stepMs)} and {f2(beside.beside.measured.overlapPct)} %.
            </p>
            <TraceGantt beside={beside.beside} />
          </>
        ) : (
          <p className="muted step-small">{beside ? beside.why : "No step to put the model beside."}</p>
        )}
        {fit.ok ? (
          <div className="trace-fit" data-testid="trace-fit">
            <p className="step-small">
              Least squares over {fit.calls} all-reduces: t = {ms(fit.interceptMs)} + size ÷{" "}
              {formatBytesPerSecond(1e3 / fit.msPerByte)} (R² {fit.r2.toFixed(4)}, rms residual{" "}
              {ms(fit.rmsMs)}), so on {view.worldSize} ranks α = {(fit.alpha * 1e6).toFixed(2)} µs and B ={" "}
              {formatBytesPerSecond(fit.bandwidth)} (a per-call cost cannot be told from α on one world size:
              it is folded into α).
            </p>
            <Residuals residuals={fit.residuals} />
            <button type="button" disabled={fitted} onClick={() => onUseFit(fit.alpha, fit.bandwidth)}>
              {fitted ? "The model uses the fitted link" : "Use the fitted link"}
            </button>
          </div>
        ) : (
          <p className="muted step-small">No link fit: {fit.why}.</p>
        )}
      </div>
    </>
  );
}

/** Residual (measured − fitted) of each all-reduce against its size. */
function Residuals({ residuals }: { residuals: { bytes: number; measuredMs: number; fittedMs: number }[] }) {
  const w = 320;
  const h = 90;
  const maxB = Math.max(1, ...residuals.map((r) => r.bytes));
  const maxR = Math.max(1e-9, ...residuals.map((r) => Math.abs(r.measuredMs - r.fittedMs)));
  return (
    <svg
      className="trace-residuals"
      width={w}
      height={h}
      role="img"
      aria-label="Residuals of the fit against all-reduce size"
    >
      <line x1={30} x2={w - 5} y1={h / 2} y2={h / 2} stroke="currentColor" opacity={0.4} />
      <text x={0} y={12}>
        residual (measured − fit), ±{ms(maxR)}
      </text>
      <text x={30} y={h - 2}>
        0
      </text>
      <text x={w - 5} y={h - 2} textAnchor="end">
        {bytes(maxB)} all-reduced
      </text>
      {residuals.map((r, i) => (
        <circle
          // biome-ignore lint/suspicious/noArrayIndexKey: residuals are a fixed list, drawn in order
          key={i}
          cx={30 + ((w - 40) * r.bytes) / maxB}
          cy={h / 2 - ((h / 2 - 8) * (r.measuredMs - r.fittedMs)) / maxR}
          r={2.5}
          fill="var(--accent, #4e79a7)"
        />
      ))}
    </svg>
  );
}
