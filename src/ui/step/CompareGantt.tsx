/**
 * One step of control above the same step of test, on one time axis from each step's start:
 * computation on one row, communication on the next (its exposed part, not under computation,
 * drawn solid), a mark where each step ends, and each part's change written beside the rows.
 */

import type { Interval } from "../../step/intervals.ts";
import type { AlignedStep, SideTimeline } from "../../step/trace/diffTimeline.ts";
import { ms } from "./units.ts";

const W = 760;
const ROW = 16;
const LABEL = 110;
const RIGHT = 10;

const signedMs = (x: number) => (Math.abs(x) < 5e-7 ? "±0" : `${x > 0 ? "+" : "−"}${ms(Math.abs(x))}`);

function Spans({
  spans,
  y,
  scale,
  className,
}: {
  spans: readonly Interval[];
  y: number;
  scale: (t: number) => number;
  className: string;
}) {
  return (
    <>
      {spans.map((s) => (
        <rect
          key={`${s.start}`}
          x={scale(s.start)}
          y={y}
          width={Math.max(0.5, scale(s.end) - scale(s.start))}
          height={ROW - 4}
          className={className}
        />
      ))}
    </>
  );
}

function Side({
  side,
  y,
  label,
  scale,
}: {
  side: SideTimeline;
  y: number;
  label: string;
  scale: (t: number) => number;
}) {
  return (
    <g>
      <text x={0} y={y + ROW - 5} className="trace-gantt-label">
        {label} compute
      </text>
      <Spans spans={side.compute} y={y} scale={scale} className="trace-gantt-compute" />
      <text x={0} y={y + 2 * ROW - 5} className="trace-gantt-label">
        {label} comm
      </text>
      <Spans spans={side.comm} y={y + ROW} scale={scale} className="compare-gantt-hidden" />
      <Spans spans={side.exposed} y={y + ROW} scale={scale} className="compare-gantt-exposed" />
      <line
        x1={scale(side.stepMs)}
        x2={scale(side.stepMs)}
        y1={y - 2}
        y2={y + 2 * ROW}
        className="compare-gantt-end"
      >
        <title>{`${side.name} ends at ${ms(side.stepMs)}`}</title>
      </line>
    </g>
  );
}

export function CompareGantt({ aligned }: { aligned: AlignedStep }) {
  const { control, test } = aligned;
  const end = Math.max(aligned.axisMs, 1e-9);
  const scale = (t: number) => LABEL + ((W - LABEL - RIGHT) * t) / end;
  const h = 4 * ROW + 44;
  const d = (k: "stepMs" | "computeMs" | "exposedCommMs" | "idleMs") =>
    signedMs(test.split[k] - control.split[k]);
  return (
    <figure className="compare-gantt-figure">
      <svg
        className="trace-gantt"
        viewBox={`0 0 ${W} ${h}`}
        role="img"
        aria-label={`rank ${aligned.rank}, ${control.name} (control) above ${test.name} (test), from each step's start`}
        data-testid="compare-gantt"
      >
        <Side side={control} y={0} label="control" scale={scale} />
        <Side side={test} y={2 * ROW + 8} label="test" scale={scale} />
        <line x1={scale(0)} x2={scale(end)} y1={h - 26} y2={h - 26} stroke="currentColor" opacity={0.4} />
        <text x={scale(0)} y={h - 14} className="trace-gantt-label">
          0
        </text>
        <text x={scale(end)} y={h - 14} textAnchor="end" className="trace-gantt-label">
          {ms(end)} from each step's start
        </text>
      </svg>
      <figcaption className="step-small" data-testid="compare-gantt-delta">
        Rank {aligned.rank}, {control.name} → {test.name}: step {ms(control.stepMs)} → {ms(test.stepMs)} (
        {d("stepMs")}); computation {d("computeMs")}, exposed communication {d("exposedCommMs")}, idle{" "}
        {d("idleMs")}. <span className="compare-key compare-key-exposed" /> exposed,{" "}
        <span className="compare-key compare-key-hidden" /> hidden communication; the bar marks each step's
        end.
      </figcaption>
    </figure>
  );
}
