/** Step time against bucket_cap_mb on a log axis, the fastest cap marked, with a button to use it. */
import { scaleLinear, scaleLog } from "d3-scale";
import { line } from "d3-shape";
import { useRef } from "react";
import type { SweepResult } from "../../step/sweep.ts";
import { useWidth } from "../useWidth.ts";
import { mib, ms } from "./units.ts";

const H = 230;
const M = { left: 62, right: 16, top: 16, bottom: 40 };
const TICKS = [0.5, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512];

interface Props {
  sweep: SweepResult;
  capMb: number;
  computeMs: number;
  onPick(capMb: number): void;
}

export function SweepChart({ sweep, capMb, computeMs, onPick }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  const width = useWidth(ref, 600);
  const pts = sweep.points;
  const best = pts[sweep.best];
  const first = pts[0];
  const last = pts.at(-1);
  if (!best || !first || !last) return null;
  const x = scaleLog()
    .domain([first.capMb, last.capMb])
    .range([M.left, width - M.right]);
  const yMax = Math.max(...pts.map((p) => p.stepMs));
  const yMin = Math.min(computeMs, ...pts.map((p) => p.stepMs));
  const pad = (yMax - yMin) * 0.08 || yMax * 0.05 || 1;
  const y = scaleLinear()
    .domain([Math.max(0, yMin - pad), yMax + pad])
    .range([H - M.bottom, M.top])
    .nice();
  const path = line<(typeof pts)[number]>()
    .x((p) => x(p.capMb))
    .y((p) => y(p.stepMs))(pts);
  const bestX = x(best.capMb);
  return (
    <div className="step-sweep" ref={ref}>
      <svg
        width={width}
        height={H}
        role="img"
        aria-label={`Step time against bucket_cap_mb; fastest at ${mib(best.capMb)} MiB`}
      >
        <g className="step-axis">
          {y.ticks(5).map((v) => (
            <g key={v} transform={`translate(0,${y(v)})`}>
              <line x1={M.left} x2={width - M.right} className="step-grid" />
              <text x={M.left - 6} y={4} textAnchor="end">
                {v}
              </text>
            </g>
          ))}
          {TICKS.map((v) => (
            <g key={v} transform={`translate(${x(v)},${H - M.bottom})`}>
              <line y2={5} />
              <text y={18} textAnchor="middle">
                {v}
              </text>
            </g>
          ))}
          <text x={(M.left + width - M.right) / 2} y={H - 6} textAnchor="middle">
            bucket_cap_mb (MiB, log scale)
          </text>
          <text transform={`translate(14,${(H - M.bottom + M.top) / 2}) rotate(-90)`} textAnchor="middle">
            step time (ms)
          </text>
        </g>
        {computeMs >= y.domain()[0]! && (
          <g className="step-floor">
            <line x1={M.left} x2={width - M.right} y1={y(computeMs)} y2={y(computeMs)} />
            <text x={width - M.right - 4} y={y(computeMs) - 5} textAnchor="end">
              compute alone {ms(computeMs)}
            </text>
          </g>
        )}
        <line x1={x(capMb)} x2={x(capMb)} y1={M.top} y2={H - M.bottom} className="step-current" />
        <path d={path ?? ""} className="step-sweep-line" />
        {pts.map((p) => (
          <circle key={p.capMb} cx={x(p.capMb)} cy={y(p.stepMs)} r={2.5} className="step-sweep-dot">
            <title>
              {mib(p.capMb)} MiB: {ms(p.stepMs)}, {p.bucketCount} buckets
            </title>
          </circle>
        ))}
        <g className="step-best" data-testid="sweep-best">
          <circle cx={bestX} cy={y(best.stepMs)} r={6} />
          <text
            x={bestX + (bestX > width * 0.7 ? -10 : 10)}
            y={y(best.stepMs) - 10}
            textAnchor={bestX > width * 0.7 ? "end" : "start"}
          >
            best {mib(best.capMb)} MiB: {ms(best.stepMs)}
          </text>
        </g>
      </svg>
      <button
        type="button"
        className="step-use-best"
        disabled={best.capMb === capMb}
        onClick={() => onPick(best.capMb)}
      >
        Use the best size ({mib(best.capMb)} MiB)
      </button>
    </div>
  );
}
