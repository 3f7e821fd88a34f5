/** Compute utilisation of DP, DiLoCo and Streaming DiLoCo against the link's bandwidth (log axis). */
import { scaleLinear, scaleLog } from "d3-scale";
import { line } from "d3-shape";
import { useRef } from "react";
import {
  type CurvePoint,
  type OuterSyncFigures,
  type SyncProblem,
  UTILISATION_TARGETS,
  utilisationCurve,
} from "../../step/outerSync.ts";
import { useWidth } from "../useWidth.ts";
import { rateText } from "./outerSyncText.ts";

const H = 240;
const M = { left: 48, right: 24, top: 12, bottom: 40 };

interface Props {
  figures: OuterSyncFigures;
  problem: SyncProblem;
  bandwidth: number;
}

export function OuterSyncChart({ figures, problem, bandwidth }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  const width = useWidth(ref, 600);
  const [lo, hi] = figures.axis;
  const x = scaleLog()
    .domain([lo, hi])
    .range([M.left, width - M.right]);
  const y = scaleLinear()
    .domain([0, 1])
    .range([H - M.bottom, M.top]);
  const decades: number[] = [];
  for (let e = Math.round(Math.log10(lo)); e <= Math.round(Math.log10(hi)); e++) decades.push(10 ** e);
  // A label every decade while they fit (~64 px each), else every other one.
  const every = (width - M.left - M.right) / decades.length < 64 ? 2 : 1;
  const path = line<CurvePoint>()
    .x((p) => x(p.bandwidth))
    .y((p) => y(p.utilisation));
  const here = Math.min(hi, Math.max(lo, bandwidth));
  return (
    <div className="outer-sync-chart" ref={ref}>
      <ul className="outer-sync-legend step-small" aria-hidden="true">
        {figures.strategies.map((s) => (
          <li key={s.strategy.id}>
            <span className={`outer-sync-swatch outer-sync-${s.strategy.id}`} />
            {s.strategy.label}
          </li>
        ))}
        <li className="muted">dashed: 50 / 90 / 99 % · dotted: the link</li>
      </ul>
      <svg
        width={width}
        height={H}
        role="img"
        aria-label="Compute utilisation of data parallelism, DiLoCo and Streaming DiLoCo against the bandwidth between replicas"
      >
        <g className="step-axis">
          {[0, 0.25, 0.5, 0.75, 1].map((v) => (
            <g key={v} transform={`translate(0,${y(v)})`}>
              <line x1={M.left} x2={width - M.right} className="step-grid" />
              <text x={M.left - 6} y={4} textAnchor="end">
                {v * 100}%
              </text>
            </g>
          ))}
          {decades.map((v, i) => (
            <g key={v} transform={`translate(${x(v)},${H - M.bottom})`}>
              <line y2={5} />
              {i % every === 0 && (
                <text y={18} textAnchor={i === decades.length - 1 ? "end" : "middle"}>
                  {rateText(v)}
                </text>
              )}
            </g>
          ))}
          <text x={(M.left + width - M.right) / 2} y={H - 4} textAnchor="middle">
            bandwidth between replicas (log scale)
          </text>
        </g>
        {UTILISATION_TARGETS.map((u) => (
          <line key={u} className="outer-sync-target" x1={M.left} x2={width - M.right} y1={y(u)} y2={y(u)} />
        ))}
        <line x1={x(here)} x2={x(here)} y1={M.top} y2={H - M.bottom} className="step-current" />
        {figures.strategies.map((s) => (
          <path
            key={s.strategy.id}
            d={path(utilisationCurve(problem, s.strategy, figures.axis)) ?? ""}
            className={`outer-sync-line outer-sync-${s.strategy.id}`}
          />
        ))}
      </svg>
    </div>
  );
}
