/** busbw against size per device (log x), one line per algorithm, for one mode and device count. */
import { scaleLinear, scaleLog, scaleOrdinal } from "d3-scale";
import { schemeTableau10 } from "d3-scale-chromatic";
import { line } from "d3-shape";
import type { Mode } from "../../gpu/executor.ts";
import type { CaseResult } from "../../gpu/runCase.ts";
import { BANDWIDTH_UNITS, columnUnit } from "./columnUnit.ts";
import { bytes } from "./labFormat.ts";

/**
 * The busbw unit of the results table beside the chart (chosen from the same results), so the
 * chart's axis and the table's column read in one unit.
 */
export function chartBandwidthUnit(results: readonly { busbw: number }[]): { name: string; scale: number } {
  const name = columnUnit(
    results.map((r) => r.busbw),
    BANDWIDTH_UNITS,
  ).unit;
  return BANDWIDTH_UNITS.find((u) => u.name === name) ?? { name: "GB/s", scale: 1 };
}

const W = 560;
const H = 280;
const M = { top: 16, right: 130, bottom: 40, left: 62 };

export function BusBwChart({
  results,
  mode,
  devices,
}: {
  results: CaseResult[];
  mode: Mode;
  devices: number;
}) {
  const mine = results.filter((r) => r.mode === mode && r.devices === devices && r.verified);
  // The latest run per (algorithm, size): re-runs replace, not average.
  const latest = new Map<string, CaseResult>();
  for (const r of mine) latest.set(`${r.algorithm}|${r.bytesPerDevice}`, r);
  const byAlg = new Map<string, CaseResult[]>();
  for (const r of latest.values()) byAlg.set(r.algorithm, [...(byAlg.get(r.algorithm) ?? []), r]);
  for (const rs of byAlg.values()) rs.sort((a, b) => a.bytesPerDevice - b.bytesPerDevice);
  const title = `busbw vs size, ${mode} mode, ${devices} devices`;
  if (latest.size === 0) {
    return (
      <figure className="lab-chart">
        <figcaption>{title}</figcaption>
        <p className="lab-empty">Run a few sizes (or the sweep) to draw the chart.</p>
      </figure>
    );
  }
  const all = [...latest.values()];
  const unit = chartBandwidthUnit(results);
  const bw = (r: CaseResult) => r.busbw / unit.scale;
  const sizes = all.map((r) => r.bytesPerDevice);
  const lo = Math.min(...sizes);
  const hi = Math.max(...sizes);
  const x = scaleLog()
    .domain(lo === hi ? [lo / 2, hi * 2] : [lo, hi])
    .range([M.left, W - M.right]);
  const y = scaleLinear()
    .domain([0, Math.max(...all.map(bw)) * 1.1 || 1])
    .nice()
    .range([H - M.bottom, M.top]);
  const color = scaleOrdinal<string, string>(schemeTableau10).domain([
    "ring",
    "halving-doubling",
    "one-shot",
    "reduce-scatter",
    "all-gather",
  ]);
  const path = line<CaseResult>()
    .x((r) => x(r.bytesPerDevice))
    .y((r) => y(bw(r)));
  // Powers of four (4 KiB, 16 KiB, …): the sizes the lab offers.
  const [d0, d1] = x.domain() as [number, number];
  const xTicks: number[] = [];
  for (let t = 4 ** Math.ceil(Math.log(d0) / Math.log(4)); t <= d1; t *= 4) xTicks.push(t);
  return (
    <figure className="lab-chart">
      <figcaption>{title}</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={title}>
        {y.ticks(5).map((t) => (
          <g key={`y${t}`}>
            <line x1={M.left} x2={W - M.right} y1={y(t)} y2={y(t)} className="grid" />
            <text x={M.left - 6} y={y(t)} dy="0.32em" textAnchor="end" className="tick">
              {t}
            </text>
          </g>
        ))}
        {xTicks.map((t) => (
          <text key={`x${t}`} x={x(t)} y={H - M.bottom + 16} textAnchor="middle" className="tick">
            {bytes(t)}
          </text>
        ))}
        <text x={(M.left + W - M.right) / 2} y={H - 4} textAnchor="middle" className="axis-label">
          bytes per device (log)
        </text>
        <text
          transform={`translate(14 ${(M.top + H - M.bottom) / 2}) rotate(-90)`}
          textAnchor="middle"
          className="axis-label"
        >
          busbw ({unit.name})
        </text>
        {[...byAlg].map(([alg, rs], i) => (
          <g key={alg}>
            <path d={path(rs) ?? ""} fill="none" stroke={color(alg)} strokeWidth={2} />
            {rs.map((r) => (
              <circle key={r.bytesPerDevice} cx={x(r.bytesPerDevice)} cy={y(bw(r))} r={3} fill={color(alg)} />
            ))}
            <rect x={W - M.right + 12} y={M.top + i * 18} width={12} height={3} fill={color(alg)} />
            <text x={W - M.right + 28} y={M.top + i * 18 + 4} className="legend">
              {alg}
            </text>
          </g>
        ))}
      </svg>
    </figure>
  );
}
