/**
 * Cumulative useful training against wall time, for both policies and the ideal (no failures).
 * The gap to the ideal line at the end is 1 − ETTR; a sync curve that drops is work rolled back.
 * The timeline's current window is shaded.
 */

import { axisBottom, axisLeft } from "d3-axis";
import { scaleLinear } from "d3-scale";
import { select } from "d3-selection";
import { line } from "d3-shape";
import { useEffect, useMemo, useRef } from "react";
import { policyOf } from "../../sim/policies/index.ts";
import { derived } from "../../sim/scenario/index.ts";
import type { PolicyMetrics, RunResult } from "../../sim/types.ts";
import { useExplorerStore } from "../../state/explorerStore.ts";
import { pct } from "../format.ts";
import { policyStyle } from "../policyColour.ts";
import { decimateCurve } from "../timeline/lod.ts";
import { useWidth } from "../useWidth.ts";

const H = 260;
const M = { top: 14, right: 118, bottom: 40, left: 58 };

interface Props {
  run: RunResult;
  svgRef: React.RefObject<SVGSVGElement | null>;
}

export function GoodputChart({ run, svgRef }: Props) {
  const boxRef = useRef<HTMLDivElement>(null);
  const width = useWidth(boxRef);
  const window = useExplorerStore((s) => s.window);
  const horizon = derived(run.scenario).horizonSeconds;
  const unit = horizon >= 2 * 86_400 ? { s: 86_400, name: "days" } : { s: 3600, name: "hours" };
  const innerW = Math.max(50, width - M.left - M.right);
  const innerH = H - M.top - M.bottom;
  const x = useMemo(
    () =>
      scaleLinear()
        .domain([0, horizon / unit.s])
        .range([0, innerW]),
    [horizon, unit.s, innerW],
  );
  const y = useMemo(
    () =>
      scaleLinear()
        .domain([0, horizon / unit.s])
        .range([innerH, 0]),
    [horizon, unit.s, innerH],
  );

  const paths = useMemo(() => {
    const trace = run.trace;
    if (!trace) return null;
    const mk = (c: { t: Float64Array; useful: Float64Array }) => {
      const d = decimateCurve(c.t, c.useful, innerW);
      return line<number>()
        .x((i) => x((d.t[i] as number) / unit.s))
        .y((i) => y((d.y[i] as number) / unit.s))(d.t.map((_, i) => i));
    };
    return trace.policies.flatMap((key) => {
      const rec = trace.recordings[key];
      return rec ? [{ key, d: mk(rec.progress) }] : [];
    });
  }, [run, innerW, x, y, unit.s]);

  const xAxisRef = useRef<SVGGElement>(null);
  const yAxisRef = useRef<SVGGElement>(null);
  useEffect(() => {
    if (xAxisRef.current)
      select(xAxisRef.current).call(axisBottom(x).ticks(Math.max(2, Math.floor(innerW / 80))));
    if (yAxisRef.current) select(yAxisRef.current).call(axisLeft(y).ticks(5));
  }, [x, y, innerW]);

  const end = horizon / unit.s;
  const endY = (ettr: number) => y(ettr * end);
  // Each selected policy's curve and end label, in its own colour (--policy, from its registry entry).
  const policies = run.scenario.policies.flatMap((key) => {
    const m = (run as Partial<Record<string, PolicyMetrics>>)[key];
    if (!m) return [];
    const p = policyOf(key);
    return [{ key, p, ettr: m.ettr }];
  });
  const labels: { key: string; text: string; y: number; cls: string; policy?: string }[] = [
    { key: "ideal", text: "Ideal 100%", y: y(end), cls: "gp-ideal" },
    ...policies.map((q) => ({
      key: q.key,
      text: `${q.p.shortLabel} ${pct(q.ettr)}`,
      y: endY(q.ettr),
      cls: "gp-policy",
      policy: q.key,
    })),
  ];
  // Keep end labels from overlapping.
  labels.sort((a, b) => a.y - b.y);
  for (let i = 1; i < labels.length; i++) {
    const prev = labels[i - 1];
    const cur = labels[i];
    if (prev && cur && cur.y - prev.y < 14) cur.y = prev.y + 14;
  }

  return (
    <div ref={boxRef} className="chart-box">
      <svg
        ref={svgRef}
        width={width}
        height={H}
        role="img"
        aria-labelledby="goodput-title"
        data-testid="goodput-chart"
        className="goodput-chart"
      >
        <title id="goodput-title">
          {`Useful training against wall time: ideal, ${policies.map((q) => `${q.p.label} (${pct(q.ettr)})`).join(", ")}`}
        </title>
        <g transform={`translate(${M.left},${M.top})`}>
          {window && (
            <rect
              className="gp-window"
              x={x(window[0] / unit.s)}
              width={Math.max(1, x(window[1] / unit.s) - x(window[0] / unit.s))}
              y={0}
              height={innerH}
            />
          )}
          <line className="gp-ideal" x1={0} y1={innerH} x2={innerW} y2={y(end)} />
          {paths?.map((c) => (
            <path
              key={c.key}
              className="gp-policy"
              data-policy={c.key}
              style={policyStyle(c.key)}
              d={c.d ?? ""}
            />
          ))}
          <g ref={xAxisRef} className="axis" transform={`translate(0,${innerH})`} />
          <g ref={yAxisRef} className="axis" />
          {labels.map((l) => (
            <text
              key={l.key}
              className={`gp-label ${l.cls}`}
              style={l.policy ? policyStyle(l.policy) : undefined}
              x={innerW + 6}
              y={l.y}
              dominantBaseline="middle"
            >
              {l.text}
            </text>
          ))}
          <text className="axis-title" x={innerW / 2} y={innerH + 34} textAnchor="middle">
            Wall time ({unit.name})
          </text>
          <text
            className="axis-title"
            transform={`translate(${-44},${innerH / 2}) rotate(-90)`}
            textAnchor="middle"
          >
            Useful training ({unit.name})
          </text>
        </g>
      </svg>
    </div>
  );
}
