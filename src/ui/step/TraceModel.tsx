/**
 * The model beside one measured step: which rank and step, what the step's window holds and what
 * of it the model stands for (compute and the communication it cannot hide; not idle time, not
 * other kernels), both timelines on one axis, the sizes to borrow when the trace has none, and
 * the α–β fit with "Use the fitted link".
 */
import type { Link } from "../../step/collectiveCost.ts";
import type { TraceView } from "../../worker/traceApi.ts";
import { TraceGantt } from "./TraceGantt.tsx";
import { bytes, formatBytesPerSecond, ms } from "./units.ts";

export interface TraceModelProps {
  view: TraceView;
  stepIndex: number;
  onStep: (i: number) => void;
  onRank: (rank: number) => void;
  onUseFit: (alpha: number, bandwidth: number) => void;
  link: Link;
  borrow: { on: boolean; set: (on: boolean) => void; modelName: string | null; buckets: number | null };
}

const f2 = (x: number | null) => (x === null ? "—" : x.toFixed(2));
/** A relative error with its sign: "+4.2 %", "−6.1 %", "±0.0 %". */
function signedPct(x: number): string {
  const t = (Math.abs(x) * 100).toFixed(1);
  return `${t === "0.0" ? "±" : x > 0 ? "+" : "−"}${t} %`;
}
const pctOf = (part: number, whole: number) => (whole > 0 ? `${((100 * part) / whole).toFixed(0)} %` : "—");

export function TraceModel({ view, stepIndex, onStep, onRank, onUseFit, link, borrow }: TraceModelProps) {
  const fit = view.fit;
  const fitted = fit.ok && link.alpha === fit.alpha && link.bandwidth === fit.bandwidth;
  const beside = view.beside;
  const c = view.contents;
  return (
    <div className="trace-model">
      <div className="step-section-head">
        <h4>The model beside the measurement</h4>
        {view.rankChoices.length > 1 && (
          <label className="step-small">
            rank{" "}
            <select
              aria-label="Rank beside the model"
              value={view.besideRank ?? ""}
              onChange={(e) => onRank(Number(e.currentTarget.value))}
            >
              {view.rankChoices.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </label>
        )}
        {view.stepNames.length > 1 && (
          <label className="step-small">
            step{" "}
            <select
              aria-label="Step beside the model"
              value={Math.min(stepIndex, view.stepNames.length - 1)}
              onChange={(e) => onStep(Number(e.currentTarget.value))}
            >
              {view.stepNames.map((n, i) => (
                <option key={n} value={i}>
                  {n}
                </option>
              ))}
            </select>
            {view.stepCount > view.stepNames.length &&
              ` (first ${view.stepNames.length} of ${view.stepCount})`}
          </label>
        )}
      </div>
      {c !== null && view.timeline !== null && (
        <p className="step-small" data-testid="trace-contents">
          {view.timeline.step} on rank {view.besideRank} lasts {ms(c.windowMs)}: compute {ms(c.computeMs)} (
          {pctOf(c.computeMs, c.windowMs)}), communication not hidden by compute {ms(c.exposedCommMs)}, other
          kernels alone (memory copies) {ms(c.otherMs)}, idle (no kernel running) {ms(c.idleMs)} (
          {pctOf(c.idleMs, c.windowMs)}). The model holds the first two only, {ms(c.modelledMs)} measured: it
          leaves out idle time and other kernels.
        </p>
      )}
      {beside?.ok ? (
        <>
          <p className="step-small" data-testid="trace-model-error">
            The model ({fitted ? "the link fitted to these traces" : link.label}, α{" "}
            {(link.alpha * 1e6).toFixed(2)} µs, {formatBytesPerSecond(link.bandwidth)}) predicts{" "}
            {ms(beside.beside.predicted.stepMs)} and {f2(beside.beside.predicted.overlapPct)} % hidden
            {c !== null && (
              <>
                {" "}
                against {ms(c.modelledMs)} of compute and exposed communication measured (
                {c.modelledMs > 0
                  ? signedPct((beside.beside.predicted.stepMs - c.modelledMs) / c.modelledMs)
                  : "—"}
                )
              </>
            )}
            ; the whole step measured {ms(beside.beside.measured.stepMs)},{" "}
            {f2(beside.beside.measured.overlapPct)} % hidden.
          </p>
          <TraceGantt
            step={beside.beside.step}
            measured={beside.beside.measured}
            predicted={beside.beside.predicted}
          />
        </>
      ) : (
        <>
          <p className="muted step-small" data-testid="trace-model-why">
            {beside ? `No model beside it: ${beside.why}.` : "No step to put the model beside."}
          </p>
          {view.timeline !== null && (
            <TraceGantt step={view.timeline.step} measured={view.timeline.side} predicted={null} />
          )}
        </>
      )}
      {view.timeline !== null && view.stepComm > view.timeline.side.buckets.length && (
        <p className="muted step-small">
          {view.stepComm.toLocaleString("en-US")} communication kernels in this step, drawn as{" "}
          {view.timeline.side.buckets.length} marks (neighbours narrower than a pixel merged).
        </p>
      )}
      {view.sizes.unsized > 0 && <BorrowSizes view={view} borrow={borrow} />}
      {fit.ok ? (
        <div className="trace-fit" data-testid="trace-fit">
          <p className="step-small">
            Least squares over {fit.calls} all-reduces: t = {ms(fit.interceptMs)} + size ÷{" "}
            {formatBytesPerSecond(1e3 / fit.msPerByte)} (R² {fit.r2.toFixed(4)}, rms residual {ms(fit.rmsMs)}
            ), so on {view.worldSize} ranks α = {(fit.alpha * 1e6).toFixed(2)} µs and B ={" "}
            {formatBytesPerSecond(fit.bandwidth)} (a per-call cost cannot be told from α on one world size: it
            is folded into α).
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
  );
}

/** The way on for a trace whose all-reduces carry no size: the model on screen's buckets. */
function BorrowSizes({ view, borrow }: Pick<TraceModelProps, "view" | "borrow">) {
  const b = view.sizes.borrowed;
  return (
    <div className="trace-borrow step-small" data-testid="trace-borrow">
      <p>
        {view.sizes.unsized.toLocaleString("en-US")} all-reduces in these traces carry no size. Profilers from
        PyTorch 2.0 on write it (<code>In msg nelems</code> and <code>dtype</code> on the{" "}
        <code>record_param_comms</code> op, added by pytorch/pytorch#85368 in late 2022; newer Kineto copies
        them onto the NCCL kernel); PyTorch 1.x traces carry none.
      </p>
      {borrow.buckets === null ? (
        <p className="muted">The model on screen has too many buckets to lend their sizes.</p>
      ) : (
        <label>
          <input type="checkbox" checked={borrow.on} onChange={(e) => borrow.set(e.currentTarget.checked)} />{" "}
          Borrow the sizes of the {borrow.buckets} buckets of the model on screen (
          {borrow.modelName ?? "the model"}, as chosen in this view's model settings: a preset, or your
          parameter list pasted there), the k-th all-reduce of a step taking the k-th bucket's bytes
        </label>
      )}
      {borrow.on && b !== null && (
        <p data-testid="trace-borrowed">
          {b.sized} step{b.sized === 1 ? "" : "s"} took the model's sizes
          {b.unmatched.length > 0 &&
            `; ${b.unmatched
              .slice(0, 3)
              .map((u) => `${u.step} on rank ${u.rank} runs ${u.calls} all-reduces`)
              .join(
                ", ",
              )}${b.unmatched.length > 3 ? ", …" : ""}, not ${borrow.buckets} (a bucket cap that gives as many buckets would lend them)`}
          .
        </p>
      )}
    </div>
  );
}

/** Residual (measured − fitted) of each all-reduce against its size. */
function Residuals({ residuals }: { residuals: { bytes: number; measuredMs: number; fittedMs: number }[] }) {
  const w = 320;
  const h = 90;
  let maxB = 1;
  let maxR = 1e-9;
  for (const r of residuals) {
    maxB = Math.max(maxB, r.bytes);
    maxR = Math.max(maxR, Math.abs(r.measuredMs - r.fittedMs));
  }
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
