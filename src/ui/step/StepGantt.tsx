/**
 * The step as a Gantt: compute and communication streams, with and without overlap, on one time
 * axis. Backward is drawn in the colour of the bucket each gradient lands in, so a person can
 * follow a bucket from its gradients to its all-reduce. Hovering a bucket names its parameters.
 * With a slow rank, the time the communication stream waits for it is hatched (one path per row).
 */
import { scaleLinear } from "d3-scale";
import { memo, type ReactNode, useId, useMemo, useRef, useState } from "react";
import type { StepMetrics, StepTimeline } from "../../step/stepTimeline.ts";
import type { BucketView, StepDrawing } from "../../worker/stepApi.ts";
import { useWidth } from "../useWidth.ts";
import { bucketColor, bytes, formatBytesPerSecond, ms } from "./units.ts";

/** The row labels' gutter; narrower on a phone, so the bars keep most of the width. */
const WIDE_LABEL_W = 150;
const NARROW_LABEL_W = 92;
const ROW_H = 22;
const ROW_GAP = 6;
const GROUP_GAP = 46;
const TOP = 22;
const AXIS_H = 26;

interface Props {
  /** Already reduced to a bounded number of marks per row by the worker (stepLod.ts). */
  result: StepDrawing;
  hsdp: boolean;
  hovered: number | null;
  onHover(bucket: number | null): void;
}

interface Mark {
  bucket: number;
  start: number;
  end: number;
  /** HSDP's all-reduce across replicas, drawn fainter than the reduce-scatter before it. */
  faded: boolean;
}

/** One bucket's marks on one row, drawn as one path: a rectangle per mark. */
interface BucketPath {
  bucket: number;
  faded: boolean;
  d: string;
}

/** Consecutive gradients of one bucket merged into one run, so thousands of parameters stay cheap to draw. */
function backwardRuns(t: StepTimeline): Mark[] {
  const runs: Mark[] = [];
  for (const b of t.backward) {
    const last = runs.at(-1);
    if (last && last.bucket === b.bucket) last.end = b.end;
    else runs.push({ bucket: b.bucket, start: b.start, end: b.end, faded: false });
  }
  return runs;
}

function commMarks(t: StepTimeline, hsdp: boolean): Mark[] {
  return t.comm.flatMap((c) =>
    c.phases.map((ph, k) => ({ bucket: c.bucket, start: ph.start, end: ph.end, faded: hsdp && k === 1 })),
  );
}

/**
 * A row's marks as one path per bucket (and shade): the same rectangles, but a row of a pasted
 * model's thousand marks is a few dozen elements, so drawing it (and redrawing it on hover) stays
 * well inside a frame.
 */
function bucketPaths(marks: readonly Mark[], x: (t: number) => number, y: number, h: number): BucketPath[] {
  const paths = new Map<string, { bucket: number; faded: boolean; parts: string[] }>();
  for (const m of marks) {
    const key = `${m.bucket}${m.faded ? "f" : ""}`;
    let p = paths.get(key);
    if (!p) {
      p = { bucket: m.bucket, faded: m.faded, parts: [] };
      paths.set(key, p);
    }
    const x0 = x(m.start);
    const w = Math.max(0.5, x(m.end) - x0);
    p.parts.push(`M${x0.toFixed(2)} ${y}h${w.toFixed(2)}v${h}h${(-w).toFixed(2)}z`);
  }
  return [...paths.values()].map(({ bucket, faded, parts }) => ({ bucket, faded, d: parts.join("") }));
}

/** The slow rank's waits on a row, as one path of rectangles. */
function waitPath(t: StepTimeline, x: (t: number) => number, y: number, h: number): string {
  const parts: string[] = [];
  for (const c of t.comm) {
    if (!c.wait) continue;
    const x0 = x(c.wait.start);
    const w = Math.max(0.5, x(c.wait.end) - x0);
    parts.push(`M${x0.toFixed(2)} ${y}h${w.toFixed(2)}v${h}h${(-w).toFixed(2)}z`);
  }
  return parts.join("");
}

function Tooltip({
  bucket,
  index,
  slowRank,
}: {
  bucket: BucketView;
  index: number;
  slowRank: number | null;
}) {
  const c = bucket.reduction;
  const shown = bucket.first;
  return (
    <div className="step-tooltip" role="tooltip">
      <div>
        <strong>Bucket {index}</strong> · {bucket.dtype} · {bytes(bucket.bytes)} ·{" "}
        {bucket.count.toLocaleString("en-US")} parameter
        {bucket.count === 1 ? "" : "s"}
      </div>
      {c && (
        <div className="muted">
          ready {ms(c.ready)} → reduced {ms(c.start)}–{ms(c.end)} · algbw {formatBytesPerSecond(c.algbw)} ·
          busbw {formatBytesPerSecond(c.busbw)}
          {c.waitMs !== undefined && slowRank !== null && ` · waited ${ms(c.waitMs)} for rank ${slowRank}`}
        </div>
      )}
      <ul className="mono">
        {shown.map((p, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a bucket's parameters in order
          <li key={i}>
            {p.name} <span className="muted">{bytes(p.bytes)}</span>
          </li>
        ))}
        {bucket.count > shown.length && (
          <li className="muted">… {(bucket.count - shown.length).toLocaleString("en-US")} more</li>
        )}
      </ul>
    </div>
  );
}

const groupH = 2 * ROW_H + ROW_GAP + GROUP_GAP;
/**
 * The width last drawn at: a Gantt mounted again (a new model's step replaces "Computing…") starts
 * at it, instead of drawing every mark at a guess and again once measured.
 */
let lastWidth = 900;

/** Memoised: a new sweep or the busy flag re-renders the view, not the Gantt. */
export const StepGantt = memo(function StepGantt({ result, hsdp, hovered, onHover }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  const width = useWidth(ref, lastWidth);
  lastWidth = width;
  const [pointer, setPointer] = useState<{ x: number; y: number } | null>(null);
  const labelW = width < 480 ? NARROW_LABEL_W : WIDE_LABEL_W;
  const end = Math.max(result.baselineMetrics.stepMs, result.metrics.stepMs);
  const x = useMemo(
    () =>
      scaleLinear()
        .domain([0, end])
        .range([labelW, width - 12]),
    [end, labelW, width],
  );
  const w = (a: number, b: number) => Math.max(0.5, x(b) - x(a));
  const groups: { title: string; t: StepTimeline; m: StepMetrics }[] = [
    { title: "With overlap (what DDP does)", t: result.overlapped, m: result.metrics },
    { title: "Without overlap (all-reduce after backward)", t: result.baseline, m: result.baselineMetrics },
  ];
  // The marks' paths depend on the result and the width, not on hovering: hovering only dims them.
  const paths = useMemo(
    () =>
      [result.overlapped, result.baseline].map((t, g) => {
        const yc = TOP + g * groupH + 14;
        const ym = yc + ROW_H + ROW_GAP;
        return {
          backward: bucketPaths(backwardRuns(t), x, yc, ROW_H),
          comm: bucketPaths(commMarks(t, hsdp), x, ym, ROW_H),
          wait: waitPath(t, x, ym, ROW_H),
        };
      }),
    [result, hsdp, x],
  );
  const height = TOP + groups.length * groupH + AXIS_H;
  const slowRank = result.slowRank?.rank ?? null;
  const hatchId = `step-wait-${useId().replace(/[^a-zA-Z0-9]/g, "")}`;
  const dim = (b: number) => (hovered === null || hovered === b ? 1 : 0.25);
  const hover = (b: number | null) => (e: React.PointerEvent) => {
    onHover(b);
    const box = ref.current?.getBoundingClientRect();
    if (box && b !== null) setPointer({ x: e.clientX - box.left, y: e.clientY - box.top });
  };

  const rows: ReactNode[] = groups.map(({ title, t, m }, g) => {
    const y0 = TOP + g * groupH;
    const yc = y0 + 14;
    const ym = yc + ROW_H + ROW_GAP;
    const backwardEnd = t.backward.at(-1)?.end ?? t.forward.end;
    const commEnd = t.comm.at(-1)?.end ?? backwardEnd;
    return (
      <g key={title}>
        <text x={width < 480 ? 0 : labelW} y={y0 + 4} className="step-gantt-title">
          {title}: <tspan fontWeight={700}>{ms(m.stepMs)}</tspan>
        </text>
        <text x={labelW - 8} y={yc + ROW_H / 2 + 4} textAnchor="end" className="step-gantt-label">
          compute
        </text>
        <text x={labelW - 8} y={ym + ROW_H / 2 + 4} textAnchor="end" className="step-gantt-label">
          communication
        </text>
        <rect x={labelW} y={yc} width={width - 12 - labelW} height={ROW_H} className="step-gantt-lane" />
        <rect x={labelW} y={ym} width={width - 12 - labelW} height={ROW_H} className="step-gantt-lane" />
        <rect
          x={x(t.forward.start)}
          y={yc}
          width={w(t.forward.start, t.forward.end)}
          height={ROW_H}
          className="step-fwd"
        >
          <title>forward {ms(t.forward.end - t.forward.start)}</title>
        </rect>
        {x(t.forward.end) - x(t.forward.start) > 60 && (
          <text
            x={(x(t.forward.start) + x(t.forward.end)) / 2}
            y={yc + ROW_H / 2 + 4}
            textAnchor="middle"
            className="step-bar-text"
          >
            forward
          </text>
        )}
        {paths[g]?.backward.map((p) => (
          <path
            key={p.bucket}
            d={p.d}
            fill={bucketColor(p.bucket)}
            opacity={0.55 * dim(p.bucket)}
            onPointerMove={hover(p.bucket)}
            onPointerLeave={hover(null)}
          />
        ))}
        <rect
          x={x(t.optimizer.start)}
          y={yc}
          width={w(t.optimizer.start, t.optimizer.end)}
          height={ROW_H}
          className="step-opt"
        >
          <title>optimizer {ms(t.optimizer.end - t.optimizer.start)}</title>
        </rect>
        {paths[g]?.comm.map((p) => (
          <path
            key={`${p.bucket}${p.faded ? "f" : ""}`}
            d={p.d}
            fill={bucketColor(p.bucket)}
            opacity={(p.faded ? 0.6 : 1) * dim(p.bucket)}
            className="step-comm"
            data-bucket={p.bucket}
            onPointerMove={hover(p.bucket)}
            onPointerLeave={hover(null)}
          />
        ))}
        {paths[g]?.wait && (
          <path d={paths[g].wait} fill={`url(#${hatchId})`} className="step-wait" data-testid="step-wait">
            <title>waiting for rank {slowRank}</title>
          </path>
        )}
        <line
          x1={x(backwardEnd)}
          x2={x(backwardEnd)}
          y1={yc - 4}
          y2={ym + ROW_H + 4}
          className="step-bwd-end"
        />
        {commEnd > backwardEnd + 1e-9 && (
          <g className="step-exposed">
            <line x1={x(backwardEnd)} x2={x(commEnd)} y1={ym + ROW_H + 6} y2={ym + ROW_H + 6} />
            <text x={x(commEnd)} y={ym + ROW_H + 19} textAnchor="end">
              exposed {ms(commEnd - backwardEnd)}
            </text>
          </g>
        )}
      </g>
    );
  });

  const ticks = x.ticks(8);
  const axisY = TOP + groups.length * groupH - 4;
  const hoveredBucket = hovered === null ? undefined : result.buckets[hovered];
  return (
    <div className="step-gantt" ref={ref}>
      <svg
        width={width}
        height={height}
        role="img"
        aria-label="Gantt of the step: compute and communication streams"
      >
        <defs>
          <pattern
            id={hatchId}
            width={6}
            height={6}
            patternUnits="userSpaceOnUse"
            patternTransform="rotate(45)"
          >
            <rect width={6} height={6} className="step-wait-bg" />
            <line x1={0} y1={0} x2={0} y2={6} className="step-wait-line" />
          </pattern>
        </defs>
        {rows}
        <g className="step-axis">
          <line x1={labelW} x2={width - 12} y1={axisY} y2={axisY} />
          {ticks.map((v) => (
            <g key={v} transform={`translate(${x(v)},${axisY})`}>
              <line y2={5} />
              <text y={18} textAnchor="middle">
                {v}
              </text>
            </g>
          ))}
          <text x={labelW - 8} y={axisY + 18} textAnchor="end">
            ms
          </text>
        </g>
      </svg>
      {hoveredBucket && hovered !== null && pointer && (
        <div
          className="step-tooltip-anchor"
          style={{ left: Math.min(pointer.x + 14, width - 380), top: pointer.y + 14 }}
        >
          <Tooltip bucket={hoveredBucket} index={hovered} slowRank={slowRank} />
        </div>
      )}
      {result.slowRank && result.slowRank.waitMs > 0 && (
        <p className="step-small step-wait-legend" data-testid="step-wait-legend">
          <span className="step-wait-swatch" aria-hidden="true" /> hatched: waiting for rank {slowRank} (
          {result.slowRank.kind === "compute"
            ? "its gradients are not ready yet"
            : "the ring moves at its slow link's pace"}
          ), {ms(result.slowRank.waitMs)} in all with overlap
        </p>
      )}
    </div>
  );
});
