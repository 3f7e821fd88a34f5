/**
 * The sweep's chart: each selected policy's Monte Carlo mean ETTR along the axis with its p5–p95
 * band (a point and a bar per category on an enumerated axis), the legend, the sentences that say
 * where each curve peaks, and a click that loads a point's scenario. Drawn with d3 scales and axes
 * into React's SVG.
 */
import { axisBottom, axisLeft } from "d3-axis";
import { scaleLinear, scaleLog } from "d3-scale";
import { select } from "d3-selection";
import { area, line } from "d3-shape";
import { useEffect, useMemo, useRef } from "react";
import { type Policy, selectedPolicies } from "../../sim/policies/index.ts";
import type { PolicyKey } from "../../sim/policies/policyKeys.ts";
import { axisInfo, type SweepAxisId, sweepValue } from "../../sim/sweep/index.ts";
import type { Summary } from "../../sim/types.ts";
import { explorerStore, type SweepResultPoint, useExplorerStore } from "../../state/explorerStore.ts";
import { appStore, useAppStore } from "../../state/store.ts";
import { NARROW_SPAN, sweepEttrs, sweepZoomed } from "../../state/sweepZoom.ts";
import { count, pct, unitAfter } from "../format.ts";
import { policyStyle } from "../policyColour.ts";
import { useWidth } from "../useWidth.ts";
import { inSentence, sweepPartialWords, sweepPeakWords } from "./sweepPeak.ts";

/**
 * Where each legend entry sits: swatch, gap, about 7 px a character of its name, and a gap, on as
 * many rows of 16 px as the width needs (four policies do not fit on a phone's one row).
 */
function legendLayout(policies: readonly Policy[], width: number): { x: number; y: number }[] {
  let x = 0;
  let y = 0;
  return policies.map((p) => {
    const w = 20 + 7 * p.label.length + 18;
    if (x > 0 && x + w - 18 > width) {
      x = 0;
      y += 16;
    }
    const at = { x, y };
    x += w;
    return at;
  });
}

const H = 300;
const M = { top: 34, right: 20, bottom: 44, left: 56 };

export function SweepChart({
  results,
  axisId,
  svgRef,
}: {
  results: SweepResultPoint[];
  axisId: SweepAxisId;
  svgRef: React.RefObject<SVGSVGElement | null>;
}) {
  const boxRef = useRef<HTMLDivElement>(null);
  const width = useWidth(boxRef);
  const current = useAppStore((s) => s.scenario);
  const error = useExplorerStore((s) => s.sweep.error);
  const status = useExplorerStore((s) => s.sweep.status);
  const baseName = useExplorerStore((s) => s.sweep.baseName);
  // A cause's axis reads with the cause's name in the scenario it swept.
  const swept = results[0]?.scenario ?? current;
  const info = axisInfo(axisId, swept);
  // In a sentence: a knob's label with its first letter in lower case (only that: "(H)", "GPUs"
  // and "FT-HSDP" keep theirs), a cause's name as it was typed.
  const causeName = info.cause && swept.failures.causes[info.cause.index]?.name;
  const what =
    info.cause && causeName ? `the ${info.cause.key} of the cause “${causeName}”` : inSentence(info.label);
  const cats = info.categories;
  const innerW = Math.max(50, width - M.left - M.right);
  const policies = selectedPolicies(results[0]?.scenario ?? current);
  const legend = legendLayout(policies, innerW);
  const top = M.top + (legend.at(-1)?.y ?? 0);
  const innerH = H - top - M.bottom;
  const xs = results.map((r) => r.x);
  const lo = cats ? -0.5 : Math.min(...xs);
  const hi = cats ? cats.length - 0.5 : Math.max(...xs);
  const x = useMemo(
    () =>
      (info.log && lo > 0 ? scaleLog() : scaleLinear())
        .domain(lo === hi ? [lo * 0.9 || -1, hi * 1.1 || 1] : [lo, hi])
        .range([0, innerW]),
    [info.log, lo, hi, innerW],
  );
  // 0–100 % unless the person zooms to the curves' p5–p95 span: a few points' difference (where a
  // curve peaks) is then visible, and the axis's numbers say it no longer starts at 0.
  const zoomChoice = useExplorerStore((s) => s.sweep.zoom);
  const done = results.filter((r) => r.mc !== null);
  const ettrOf = (r: SweepResultPoint, key: PolicyKey): Summary | undefined => r.mc?.[key]?.ettr;
  const shown = sweepEttrs(
    done,
    policies.map((p) => p.key),
  );
  // Zoomed by default when every curve lies in a narrow band (sweepZoom.ts): a peak of a few
  // points would hide on the 0–100 % axis.
  const zoom = sweepZoomed(zoomChoice, shown);
  const yLo = zoom && shown.length > 0 ? Math.min(...shown.map((e) => e.p5)) : 0;
  const yHi = zoom && shown.length > 0 ? Math.max(...shown.map((e) => e.p95)) : 1;
  const pad = Math.max(0.005, (yHi - yLo) * 0.1);
  const y = useMemo(
    () =>
      zoom
        ? scaleLinear()
            .domain([Math.max(0, yLo - pad), Math.min(1, yHi + pad)])
            .nice(5)
            .range([innerH, 0])
        : scaleLinear().domain([0, 1]).range([innerH, 0]),
    [innerH, zoom, yLo, yHi, pad],
  );
  const xAxisRef = useRef<SVGGElement>(null);
  const yAxisRef = useRef<SVGGElement>(null);
  useEffect(() => {
    if (xAxisRef.current) {
      const ax = axisBottom(x);
      if (cats) ax.tickValues(cats.map((_, i) => i)).tickFormat((i) => cats[Number(i)]?.label ?? "");
      else ax.ticks(Math.max(2, Math.floor(innerW / 90)), info.log ? "~s" : undefined);
      select(xAxisRef.current).call(ax);
    }
    if (yAxisRef.current) select(yAxisRef.current).call(axisLeft(y).ticks(5, "%"));
  }, [x, y, innerW, info.log, cats]);

  const series = (pick: PolicyKey) => {
    const has = done.filter((r) => ettrOf(r, pick));
    const s = (r: SweepResultPoint) => ettrOf(r, pick) as Summary;
    return {
      band:
        area<SweepResultPoint>()
          .x((r) => x(r.x))
          .y0((r) => y(s(r).p5))
          .y1((r) => y(s(r).p95))(has) ?? "",
      mean:
        line<SweepResultPoint>()
          .x((r) => x(r.x))
          .y((r) => y(s(r).mean))(has) ?? "",
    };
  };
  const paths = cats ? [] : policies.map(({ key }) => ({ key, ...series(key) }));
  // Categories: the policies side by side within a category, so their bars do not hide each other.
  const dx = (j: number) => (cats ? (j - (policies.length - 1) / 2) * 10 : 0);
  // Below 0.1 two decimals would read a small cause's share (0.0048) as 0.00: three significant
  // digits. A whole number reads whole (1 step, not 1.00 steps).
  const xLabel = (v: number) =>
    cats
      ? (cats[v]?.label ?? String(v))
      : v !== 0 && Math.abs(v) < 0.1
        ? String(Number(v.toPrecision(3)))
        : count(v, v < 10 && !Number.isInteger(v) ? 2 : 0);
  const currentX = sweepValue(current, axisId);
  // Where each curve peaks, read from the means drawn: a policy missing at any point says nothing.
  const at = (v: number) => (cats || !info.unit ? xLabel(v) : `${xLabel(v)} ${unitAfter(v, info.unit)}`);
  const peaks = policies.flatMap(({ key, label }) => {
    const means = done.map((r) => ettrOf(r, key)?.mean ?? Number.NaN);
    const words = sweepPeakWords(
      label,
      means,
      done.map((r) => r.x),
      at,
      cats !== undefined,
      done.length < results.length,
    );
    return words ? [{ key, words }] : [];
  });
  const partial = sweepPartialWords(done.length, results.length, status);

  return (
    <div ref={boxRef} className="chart-box">
      <svg ref={svgRef} width={width} height={H} data-testid="sweep-chart">
        <title>ETTR of every policy against {what}</title>
        <g transform={`translate(${M.left},${top})`}>
          <g ref={xAxisRef} className="axis" transform={`translate(0,${innerH})`} />
          <g ref={yAxisRef} className="axis" />
          {currentX !== null && currentX >= lo && currentX <= hi && (
            <line className="sweep-current" x1={x(currentX)} x2={x(currentX)} y1={0} y2={innerH} />
          )}
          {paths.map(({ key, band }) => (
            <path key={`band-${key}`} className="band" style={policyStyle(key)} d={band} />
          ))}
          {paths.map(({ key, mean }) => (
            <path key={`mean-${key}`} className="mean" data-policy={key} style={policyStyle(key)} d={mean} />
          ))}
          {cats &&
            done.map((r) =>
              policies.map(({ key: p }, j) => {
                const e = ettrOf(r, p);
                return e ? (
                  <line
                    key={`bar-${r.x}-${p}`}
                    className="mean"
                    style={policyStyle(p)}
                    x1={x(r.x) + dx(j)}
                    x2={x(r.x) + dx(j)}
                    y1={y(e.p5)}
                    y2={y(e.p95)}
                  />
                ) : null;
              }),
            )}
          {done.map((r, i) =>
            policies.map(({ key: p, label: name }, j) => {
              const e = ettrOf(r, p);
              if (!e) return null;
              return (
                // biome-ignore lint/a11y/useSemanticElements: an SVG point cannot be a <button>
                <circle
                  key={`${r.x}-${p}`}
                  className="sweep-point"
                  style={policyStyle(p)}
                  cx={x(r.x) + dx(j)}
                  cy={y(e.mean)}
                  r={5}
                  role="button"
                  tabIndex={0}
                  data-testid={`sweep-point-${i}-${p}`}
                  aria-label={`${name} at ${info.label} ${xLabel(r.x)}: ETTR ${pct(e.mean)} (${pct(e.p5)}–${pct(e.p95)}). Load this scenario.`}
                  onClick={() => appStore.getState().setScenario(r.scenario)}
                  onKeyDown={(ev) => {
                    if (ev.key === "Enter" || ev.key === " ") {
                      ev.preventDefault();
                      appStore.getState().setScenario(r.scenario);
                    }
                  }}
                >
                  <title>
                    {name}: {pct(e.mean)} (p5–p95 {pct(e.p5)}–{pct(e.p95)}) at {xLabel(r.x)} {info.unit}.
                    Click to load.
                  </title>
                </circle>
              );
            }),
          )}
          <text className="axis-title" x={innerW / 2} y={innerH + 36} textAnchor="middle">
            {info.label}
            {info.unit ? ` (${info.unit})` : ""}
          </text>
          <text
            className="axis-title"
            transform={`translate(-42,${innerH / 2}) rotate(-90)`}
            textAnchor="middle"
          >
            ETTR
          </text>
          {/* Above the plot, where no curve can run under it: each policy's name by its swatch (the */}
          {/* text above says what lines and bands are), spaced by name length so none runs into the next. */}
          <g transform={`translate(0,${-26 - (legend.at(-1)?.y ?? 0)})`} className="sweep-legend">
            {policies.map(({ key, label }, i) => (
              <g
                key={key}
                transform={`translate(${legend[i]?.x ?? 0},${legend[i]?.y ?? 0})`}
                style={policyStyle(key)}
                data-testid={`sweep-legend-${key}`}
              >
                <rect className="band" width={14} height={10} />
                <line className="mean" x1={0} x2={14} y1={5} y2={5} />
                <text x={20} y={9}>
                  {label}
                </text>
              </g>
            ))}
          </g>
        </g>
      </svg>
      <p className="muted small">
        Varying {what} of “{baseName}”; every other knob as it was.{" "}
        {currentX !== null && currentX >= lo && currentX <= hi
          ? "The dashed line marks the scenario now loaded."
          : "The scenario now loaded lies outside this range."}
      </p>
      <label className="small sweep-zoom">
        <input
          type="checkbox"
          checked={zoom}
          data-testid="sweep-zoom"
          onChange={(e) => explorerStore.getState().setSweepZoom(e.target.checked)}
        />{" "}
        Zoom the ETTR axis to the curves (it no longer starts at 0 %)
        {zoomChoice === null && zoom && (
          <span className="muted" data-testid="sweep-zoom-default">
            {" "}
            — zoomed by default: every curve lies within {Math.round(NARROW_SPAN * 100)} points
          </span>
        )}
      </label>
      {peaks.length > 0 && (
        <p className="small sweep-peaks" data-testid="sweep-peaks">
          {partial && (
            <span className="sweep-partial" data-testid="sweep-peaks-partial">
              {partial}{" "}
            </span>
          )}
          {peaks.map(({ key, words }) => (
            <span key={key} data-testid={`sweep-peak-${key}`}>
              {words}{" "}
            </span>
          ))}
          <span className="muted">
            (Read from the means plotted; the true best may lie between two points.)
          </span>
        </p>
      )}
      {error && <p className="error-text">{error}</p>}
    </div>
  );
}
