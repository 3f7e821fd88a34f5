/**
 * One measured step drawn above the model's prediction for the same buckets, on one time axis:
 * compute on one row, each all-reduce (coloured by bucket, as in the step timeline) on the next;
 * without a model, the measured step alone.
 */
import type { StepSide } from "../../step/trace/modelBeside.ts";
import { bucketColor, bytes, ms } from "./units.ts";

const W = 760;
const ROW = 18;
const LABEL = 120;

function Rows({
  side,
  y,
  label,
  scale,
}: {
  side: StepSide;
  y: number;
  label: string;
  scale: (t: number) => number;
}) {
  return (
    <g>
      <text x={0} y={y + ROW - 5} className="trace-gantt-label">
        {label} compute
      </text>
      {side.compute.map((c, i) => (
        <rect
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list of spans, drawn in order
          key={i}
          x={scale(c.start)}
          y={y}
          width={Math.max(0.5, scale(c.end) - scale(c.start))}
          height={ROW - 4}
          className="trace-gantt-compute"
        />
      ))}
      <text x={0} y={y + 2 * ROW - 5} className="trace-gantt-label">
        {label} communication
      </text>
      {side.buckets.map((b, i) => (
        <rect
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list of spans, drawn in order
          key={i}
          x={scale(b.start)}
          y={y + ROW}
          width={Math.max(0.5, scale(b.end) - scale(b.start))}
          height={ROW - 4}
          fill={bucketColor(i)}
        >
          <title>{`${b.bytes > 0 ? `bucket ${i}: ${bytes(b.bytes)}` : `call ${i}, size unknown`}, ${ms(b.start)} → ${ms(b.end)}`}</title>
        </rect>
      ))}
    </g>
  );
}

export function TraceGantt({
  step,
  measured,
  predicted,
}: {
  step: string;
  measured: StepSide;
  /** null: the step as measured alone (no model beside it). */
  predicted: StepSide | null;
}) {
  // A loop, not Math.max(...spans): a step may hold more spans than a call takes arguments.
  let end = measured.stepMs;
  for (const side of predicted === null ? [measured] : [measured, predicted]) {
    end = Math.max(end, side.stepMs);
    for (const b of side.buckets) end = Math.max(end, b.end);
    for (const c of side.compute) end = Math.max(end, c.end);
  }
  const scale = (t: number) => LABEL + ((W - LABEL - 10) * t) / Math.max(end, 1e-9);
  const h = (predicted === null ? 2 : 4) * ROW + (predicted === null ? 22 : 30);
  return (
    <svg
      className="trace-gantt"
      viewBox={`0 0 ${W} ${h}`}
      role="img"
      aria-label={predicted === null ? `${step} as measured` : `${step}: measured above, model below`}
      data-testid="trace-gantt"
    >
      <Rows side={measured} y={0} label="measured" scale={scale} />
      {predicted !== null && <Rows side={predicted} y={2 * ROW + 8} label="model" scale={scale} />}
      <line x1={scale(0)} x2={scale(end)} y1={h - 14} y2={h - 14} stroke="currentColor" opacity={0.4} />
      <text x={scale(0)} y={h - 2} className="trace-gantt-label">
        0
      </text>
      <text x={scale(end)} y={h - 2} textAnchor="end" className="trace-gantt-label">
        {ms(end)} from the step's start
      </text>
    </svg>
  );
}
