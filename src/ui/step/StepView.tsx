/**
 * "One step": how DDP / HSDP gradient buckets overlap communication with backward, for a preset or
 * a pasted model. The worker computes everything; this view draws it.
 */

import { memo, useMemo, useState } from "react";
import { downloadText } from "../../export/download.ts";
import { encodeStepParam, MAX_STEP_PARAM_CHARS } from "../../link/stepLink.ts";
import { useStepStore } from "../../state/stepStore.ts";
import type { ParallelismConfig } from "../../step/collectiveCost.ts";
import { ADAM_FP32_BYTES_PER_ELEMENT, DEVICE_MEMORY, memoryFit } from "../../step/memoryFit.ts";
import { PRESET_CATALOG } from "../../step/presetCatalog.ts";
import type { StepMetrics } from "../../step/stepTimeline.ts";
import type { SweepResult } from "../../step/sweep.ts";
import type { ModelSummary, StepDrawing } from "../../worker/stepApi.ts";
import { Panel } from "../boundary/Panel.tsx";
import { pct } from "../format.ts";
import { Term } from "../glossary/Term.tsx";
import { KnobDrawer } from "../KnobDrawer.tsx";
import { ShareBar } from "../share/ShareBar.tsx";
import { OuterSyncPanel } from "./OuterSyncPanel.tsx";
import { SlowRankLine, timelineTitle } from "./SlowRankLine.tsx";
import { StepControls } from "./StepControls.tsx";
import { StepGantt } from "./StepGantt.tsx";
import { SweepChart } from "./SweepChart.tsx";
import { TracePanel } from "./TracePanel.tsx";
import { bucketColor, bytes, memoryText, ms, shareText } from "./units.ts";
import "./step.css";

function Metric({
  label,
  value,
  note,
  testId,
}: {
  label: string;
  value: string;
  note?: string;
  testId?: string;
}) {
  return (
    <div className="step-metric">
      <div className="muted step-small">{label}</div>
      <div className="step-metric-value" data-testid={testId}>
        {value}
      </div>
      {note && <div className="muted step-small">{note}</div>}
    </div>
  );
}

function Metrics({ m, baseline }: { m: StepMetrics; baseline: StepMetrics }) {
  const saved = baseline.stepMs - m.stepMs;
  return (
    <Panel what="The step metrics" className="step-metrics panel" aria-label="Step metrics">
      <Metric
        label="Step time"
        value={ms(m.stepMs)}
        note={`${ms(baseline.stepMs)} without overlap`}
        testId="step-time"
      />
      <Metric label="Saved by overlap" value={ms(saved)} note={shareText(saved, baseline.stepMs)} />
      <Metric label="Communication" value={ms(m.commMs)} note="sum of all reductions" />
      <Metric label="Exposed communication" value={ms(m.exposedCommMs)} note="after backward ends" />
      <Metric label="Overlap ratio" value={pct(m.overlapRatio)} note="HTA: comm hidden under compute" />
      <Metric label="Buckets" value={String(m.bucketCount)} testId="bucket-count" />
    </Panel>
  );
}

/** Rows the bucket table shows: enough to read, bounded however many buckets a paste makes. */
const TABLE_ROWS = 200;
/**
 * The table scrolls in a box (.step-table-wrap: 232 px) and only the rows near it are in the DOM,
 * like the failure log: laying out 200 rows of eight cells was the largest part of drawing a
 * pasted model. Rows have a fixed height so the spacers stand for the rest exactly.
 */
const ROW_H = 22;
const VIEW_H = 232;
/** Rows beyond the box on each side; a model of up to 25 buckets is drawn whole. */
const OVERSCAN = 15;

/** Memoised like the Gantt: a sweep arriving or the busy flag does not redraw the rows. */
const BucketTable = memo(function BucketTable({
  result,
  hovered,
  onHover,
}: {
  result: StepDrawing;
  hovered: number | null;
  onHover(b: number | null): void;
}) {
  const [scrollTop, setScrollTop] = useState(0);
  const n = Math.min(result.buckets.length, TABLE_ROWS);
  const first = Math.max(0, Math.floor(scrollTop / ROW_H) - OVERSCAN);
  const last = Math.min(n, Math.ceil((scrollTop + VIEW_H) / ROW_H) + OVERSCAN);
  return (
    <div className="step-table-wrap" onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}>
      <table className="step-table" aria-rowcount={n + 1}>
        <caption className="visually-hidden">Buckets in all-reduce order</caption>
        <thead>
          <tr>
            <th>#</th>
            <th>dtype</th>
            <th className="num">params</th>
            <th className="num">size</th>
            <th className="num">ready (ms)</th>
            <th className="num">reduced (ms)</th>
            <th className="num">algbw (GB/s)</th>
            <th className="num">busbw (GB/s)</th>
          </tr>
        </thead>
        <tbody>
          {first > 0 && (
            <tr className="spacer" style={{ height: first * ROW_H }}>
              <td colSpan={8} />
            </tr>
          )}
          {result.buckets.slice(first, last).map((b, k) => {
            const i = first + k;
            const c = b.reduction;
            return (
              <tr
                key={i}
                aria-rowindex={i + 2}
                style={{ height: ROW_H }}
                className={hovered === i ? "hovered" : ""}
                onPointerEnter={() => onHover(i)}
                onPointerLeave={() => onHover(null)}
              >
                <td>
                  <span className="step-swatch" style={{ background: bucketColor(i) }} />
                  {i}
                </td>
                <td>{b.dtype}</td>
                <td className="num">{b.count.toLocaleString("en-US")}</td>
                <td className="num">{bytes(b.bytes)}</td>
                <td className="num">{c ? c.ready.toFixed(2) : ""}</td>
                <td className="num">{c ? `${c.start.toFixed(2)}–${c.end.toFixed(2)}` : ""}</td>
                <td className="num">{c ? (c.algbw / 1e9).toFixed(1) : ""}</td>
                <td className="num">{c ? (c.busbw / 1e9).toFixed(1) : ""}</td>
              </tr>
            );
          })}
          {last < n && (
            <tr className="spacer" style={{ height: (n - last) * ROW_H }}>
              <td colSpan={8} />
            </tr>
          )}
        </tbody>
      </table>
      {result.bucketCount > TABLE_ROWS && (
        <p className="muted step-small" data-testid="bucket-rows-note">
          The first {TABLE_ROWS} of {result.bucketCount.toLocaleString("en-US")} buckets.
        </p>
      )}
    </div>
  );
});

/** Every size within 0.5 % of the best: compute dwarfs communication, or it is hidden at any size. */
function flatSweep(sweep: SweepResult): boolean {
  const times = sweep.points.map((p) => p.stepMs);
  return Math.max(...times) <= 1.005 * Math.min(...times);
}

function ExportButton() {
  const exportTrace = useStepStore((s) => s.exportTrace);
  const [error, setError] = useState<string | null>(null);
  return (
    <span className="step-export">
      <button
        type="button"
        onClick={async () => {
          const reply = await exportTrace();
          if (reply.ok) {
            setError(null);
            downloadText(reply.json, reply.filename, "application/json");
          } else setError(reply.error);
        }}
      >
        Export to Perfetto (.json)
      </button>
      {error && <span className="error-text step-small">{error}</span>}
    </span>
  );
}

/** Beside Copy link: a pasted list too long for a link goes by file instead. */
function PasteLeftOut() {
  const source = useStepStore((s) => s.source);
  const config = useStepStore((s) => s.config);
  const leftOut = useMemo(
    () => source.kind === "paste" && encodeStepParam({ model: source, config }).pasteLeftOut,
    [source, config],
  );
  if (!leftOut || source.kind !== "paste") return null;
  return (
    <p className="muted step-small step-paste-left-out" data-testid="paste-left-out">
      Your pasted list is too long for a link (its part would pass{" "}
      {MAX_STEP_PARAM_CHARS.toLocaleString("en-US")} characters), so the link opens {PRESET_CATALOG[0]!.label}{" "}
      with your other settings.{" "}
      <button
        type="button"
        className="link-button"
        onClick={() => downloadText(source.text, "model-parameters.json", "application/json")}
      >
        Download the list
      </button>{" "}
      to send with it.
    </p>
  );
}

export function StepView() {
  const result = useStepStore((s) => s.result);
  const model = useStepStore((s) => s.model);
  const sweep = useStepStore((s) => s.sweep);
  const config = useStepStore((s) => s.config);
  const busy = useStepStore((s) => s.busy);
  const problem = useStepStore((s) => s.problem);
  const setCapMb = useStepStore((s) => s.setCapMb);
  const [hovered, setHovered] = useState<number | null>(null);
  const hsdp = config.parallel.mode === "hsdp";
  const computeMs = config.compute.forwardMs + config.compute.backwardMs + config.compute.optimizerMs;
  const stepSummary = `${model?.name ?? "model"} · ${config.capMb} MiB buckets · ${hsdp ? "HSDP" : "DDP"}`;
  return (
    <div className="view-layout">
      <KnobDrawer label="Step knobs" summary={stepSummary}>
        <StepControls />
      </KnobDrawer>
      <div className="step-main">
        <section className="step-intro">
          <div>
            <h2>One training step, bucket by bucket</h2>
            <p>
              Backward produces gradients from the last layer to the first. <Term id="ddp" /> packs them into
              buckets (in the order they became ready, the first capped at 1 MiB) and all-reduces each bucket
              as soon as it is full, while backward goes on with earlier layers: only communication still
              running when backward ends (<em>exposed</em>) lengthens the step. Small buckets start early but
              pay the latency α many times; big ones move bytes well, but the last one waits for most of
              backward (
              <span className="term-tail">
                <Term id="alphaBeta">α–β costs</Term>
                {";"}
              </span>{" "}
              with{" "}
              <span className="term-tail">
                <Term id="hsdp" />,
              </span>{" "}
              inside and across replicas; <Term id="busbw">algbw and busbw</Term> per bucket below).
            </p>
          </div>
          <div className="view-actions">
            <ShareBar opens="this step: the model, buckets, parallelism and links" />
            <ExportButton />
          </div>
        </section>
        {/* Under the intro, full width: beside Copy link it squeezed the heading into a narrow column. */}
        <PasteLeftOut />
        {model && (
          <p className="muted step-small step-model-line" aria-live="polite">
            {model.name}: {model.count.toLocaleString("en-US")} parameters, {bytes(model.bytes)} of gradients
            {busy ? " · computing…" : ""}
          </p>
        )}
        {model && <MemoryFitLine model={model} parallel={config.parallel} />}
        {result && model ? (
          <>
            <Metrics m={result.metrics} baseline={result.baselineMetrics} />
            <SlowRankLine config={config} result={result} />
            <Panel what="The step timeline" aria-label="Step timeline">
              <div className="step-section-head">
                <h3>{timelineTitle(result.slowRank)}</h3>
                <span className="muted step-small">
                  colours = buckets · dashed line = end of backward
                  {hsdp ? " · solid: reduce-scatter in the replica, faded: all-reduce across replicas" : ""}
                </span>
              </div>
              <StepGantt result={result} hsdp={hsdp} hovered={hovered} onHover={setHovered} />
            </Panel>
            <div className="step-bottom">
              <Panel what="The bucket size sweep" aria-label="Bucket size sweep">
                <div className="step-section-head">
                  <h3>Step time vs bucket_cap_mb</h3>
                  <span className="muted step-small">
                    40 sizes, 0.5–512 MiB
                    {sweep && flatSweep(sweep) ? " · flat: the size barely matters here" : ""}
                  </span>
                </div>
                {sweep ? (
                  <SweepChart sweep={sweep} capMb={config.capMb} computeMs={computeMs} onPick={setCapMb} />
                ) : (
                  <p className="muted">Sweeping…</p>
                )}
              </Panel>
              <Panel what="The bucket table" aria-label="Buckets">
                <div className="step-section-head">
                  <h3>Buckets, in all-reduce order</h3>
                  <span className="muted step-small">hover a row to find it in the timeline</span>
                </div>
                <BucketTable result={result} hovered={hovered} onHover={setHovered} />
              </Panel>
            </div>
            <OuterSyncPanel model={model} />
          </>
        ) : (
          <p className="muted panel">
            {problem ? "Fix the parameter list (see the message under Model) to see its step." : "Computing…"}
          </p>
        )}
        <TracePanel />
      </div>
    </div>
  );
}

/** Parameters, gradients and Adam state per GPU against one H100's memory (src/step/memoryFit.ts). */
function MemoryFitLine({ model, parallel }: { model: ModelSummary; parallel: ParallelismConfig }) {
  const f = memoryFit(model, parallel);
  const where =
    f.shards > 1 ? `sharded over ${f.shards} GPUs per replica (HSDP)` : "a full replica on every GPU (DDP)";
  return (
    <p
      className={`step-small step-memory-fit ${f.fits ? "muted" : "step-memory-over"}`}
      data-testid="memory-fit"
      role={f.fits ? undefined : "alert"}
    >
      Per GPU, {where}: parameters {memoryText(f.paramBytes)} + gradients {memoryText(f.gradBytes)} + Adam
      state {memoryText(f.optimizerBytes)} (fp32 master copy and two moments, {ADAM_FP32_BYTES_PER_ELEMENT}{" "}
      bytes per element) = {memoryText(f.totalBytes)}
      {f.fits
        ? ` — within one ${DEVICE_MEMORY.label}'s ${memoryText(f.deviceBytes)} before activations.`
        : ` — cannot fit one ${DEVICE_MEMORY.label}'s ${memoryText(f.deviceBytes)}${f.shards === 1 ? "; HSDP would shard it" : ""}.`}
    </p>
  );
}
