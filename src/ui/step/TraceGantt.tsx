/**
 * One measured step drawn above the model's prediction for the same buckets, on one time axis:
 * compute on one row, each all-reduce (coloured by bucket, as in the step timeline) on the next.
 */
import type { ModelBeside, StepSide } from "../../step/trace/modelBeside.ts";
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
      {side.compute.map((c) => (
        <rect
          key={`c${c.start}`}
          x={scale(c.start)}
          y={y}
          width={Math.max(0.5, scale(c.end) - scale(c.start))}
          height={ROW - 4}
          className="trace-gantt-compute"
        />
      ))}
      <text x={0} y={y + 2 * ROW - 5} className="trace-gantt-label">
        {label} all-reduce
      </text>
      {side.buckets.map((b, i) => (
        <rect
          key={`b${b.start}`}
          x={scale(b.start)}
          y={y + ROW}
          width={Math.max(0.5, scale(b.end) - scale(b.start))}
          height={ROW - 4}
          fill={bucketColor(i)}
        >
          <title>{`bucket ${i}: ${bytes(b.bytes)}, ${ms(b.start)} → ${ms(b.end)}`}</title>
        </rect>
      ))}
    </g>
  );
}

export function TraceGantt({ beside }: { beside: ModelBeside }) {
  const end = Math.max(
    beside.measured.stepMs,
    beside.predicted.stepMs,
    ...beside.measured.buckets.map((b) => b.end),
    ...beside.predicted.buckets.map((b) => b.end),
  );
  const scale = (t: number) => LABEL + ((W - LABEL - 10) * t) / Math.max(end, 1e-9);
  const h = 4 * ROW + 30;
  return (
    <svg
      className="trace-gantt"
      viewBox={`0 0 ${W} ${h}`}
      role="img"
      aria-label={`${beside.step}: measured above, model below`}
      data-testid="trace-gantt"
    >
      <Rows side={beside.measured} y={0} label="measured" scale={scale} />
      <Rows side={beside.predicted} y={2 * ROW + 8} label="model" scale={scale} />
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
