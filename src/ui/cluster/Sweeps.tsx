/**
 * What-if sweeps: each selected policy's ETTR along one axis (cluster size, failure rate, replicas
 * or any field of the scenario), Monte Carlo mean with its p5–p95 band, computed by the worker
 * pool. An enumerated field's axis is categories: a point and its p5–p95 bar per category, no line
 * between them (there is nothing between "packed" and "striped"). Clicking a point loads that scenario.
 */

import { axisBottom, axisLeft } from "d3-axis";
import { scaleLinear, scaleLog } from "d3-scale";
import { select } from "d3-selection";
import { area, line } from "d3-shape";
import { useEffect, useMemo, useRef } from "react";
import { MONTE_CARLO_BUDGET_FAILURES } from "../../sim/monteCarlo/budget.ts";
import { type Policy, selectedPolicies } from "../../sim/policies/index.ts";
import type { PolicyKey } from "../../sim/policies/policyKeys.ts";
import {
  axisInfo,
  buildSweep,
  MAX_POINTS,
  MAX_SWEEP_SEEDS,
  MIN_POINTS,
  MIN_SWEEP_SEEDS,
  type SweepAxisId,
  sweepAxesFor,
  sweepAxisBounds,
  sweepValue,
} from "../../sim/sweep/index.ts";
import type { Summary } from "../../sim/types.ts";
import { explorerStore, type SweepResultPoint, useExplorerStore } from "../../state/explorerStore.ts";
import { useLinkWaiting } from "../../state/linkRun.ts";
import { costWords, LINK_RUN_ASK_SECONDS } from "../../state/linkRunCost.ts";
import { appStore, useAppStore } from "../../state/store.ts";
import { poolSize } from "../../state/sweepPool.ts";
import { NARROW_SPAN, sweepEttrs, sweepZoomed } from "../../state/sweepZoom.ts";
import { NumberField } from "../form/NumberField.tsx";
import { count, duration, pct, unitAfter } from "../format.ts";
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

export function Sweeps({ svgRef }: { svgRef: React.RefObject<SVGSVGElement | null> }) {
  const sweep = useExplorerStore((s) => s.sweep);
  const linkWaiting = useLinkWaiting("sweep");
  const { setSweepOptions, setSweepRange, runSweep, cancelSweep, answerSweep } = explorerStore.getState();
  const scenario = useAppStore((s) => s.scenario);
  // The axis's own range, shown until the person types one.
  const auto = useMemo(() => {
    const xs = buildSweep(scenario, sweep.axis, sweep.points).map((p) => p.x);
    return { from: xs[0] ?? 0, to: xs[xs.length - 1] ?? 1 };
  }, [scenario, sweep.axis, sweep.points]);
  const range = sweep.range ?? auto;
  // What a typed range may span on this axis: past it, the field refuses by name, with the range.
  const bounds = useMemo(() => sweepAxisBounds(scenario, sweep.axis), [scenario, sweep.axis]);
  // The scenario's own axes: the field table's, then one per field of each cause it lists.
  const axes = useMemo(() => sweepAxesFor(scenario), [scenario]);
  const info = axisInfo(sweep.axis, scenario);
  const unit = info.unit || undefined;
  const categorical = info.categories !== undefined;
  const running = sweep.status === "running";
  const frac = sweep.progress ? sweep.progress.done / Math.max(1, sweep.progress.total) : 0;
  return (
    <div>
      <div className="sweep-controls" data-control="sweep">
        <label>
          Sweep axis
          <select
            value={sweep.axis}
            onChange={(e) => setSweepOptions({ axis: e.target.value as SweepAxisId })}
            disabled={running}
          >
            {axes
              .filter((a) => !a.cause)
              .map((a) => (
                <option key={a.id} value={a.id}>
                  {a.label}
                  {a.unit ? ` (${a.unit})` : ""}
                </option>
              ))}
            {/* The scenario's own causes, under one heading: there may be 32 of them. */}
            {axes.some((a) => a.cause) && (
              <optgroup label="Cause mix">
                {axes
                  .filter((a) => a.cause)
                  .map((a) => (
                    <option key={a.id} value={a.id}>
                      {a.label}
                    </option>
                  ))}
              </optgroup>
            )}
          </select>
        </label>
        {/* Kept as typed (10–19 start with a 1) and handed on only when in range. */}
        <NumberField
          label="Points"
          className="sweep-field"
          value={sweep.points}
          min={MIN_POINTS}
          max={MAX_POINTS}
          integer
          disabled={running}
          onChange={(points) => setSweepOptions({ points })}
        />
        {!categorical && (
          <NumberField
            label="From"
            unit={unit}
            className="sweep-field"
            value={Number(range.from.toPrecision(6))}
            min={bounds?.lo ?? 0}
            max={bounds && bounds.hi < 1e12 ? bounds.hi : undefined}
            disabled={running}
            testId="sweep-from"
            onChange={(from) => setSweepRange({ from, to: range.to })}
          />
        )}
        {!categorical && (
          <NumberField
            label="To"
            unit={unit}
            className="sweep-field"
            value={Number(range.to.toPrecision(6))}
            min={bounds?.lo ?? 0}
            max={bounds && bounds.hi < 1e12 ? bounds.hi : undefined}
            disabled={running}
            testId="sweep-to"
            onChange={(to) => setSweepRange({ from: range.from, to })}
          />
        )}
        {sweep.range && (
          <button type="button" onClick={() => setSweepRange(null)} disabled={running}>
            Axis range
          </button>
        )}
        <NumberField
          label="Seeds per point"
          className="sweep-field"
          value={sweep.seeds}
          min={MIN_SWEEP_SEEDS}
          max={MAX_SWEEP_SEEDS}
          integer
          disabled={running}
          onChange={(seeds) => setSweepOptions({ seeds })}
        />
        <button type="button" className="primary" onClick={runSweep} disabled={running}>
          Run sweep
        </button>
        <button type="button" onClick={cancelSweep} disabled={!running}>
          Cancel
        </button>
        <progress
          aria-label="Sweep progress"
          data-testid="sweep-progress"
          max={1}
          value={frac}
          className={running ? "" : "idle"}
        />
        <span className="muted" data-testid="sweep-status" aria-live="polite">
          {sweep.status === "idle" && linkWaiting
            ? "The link's sweep starts once the page has drawn its run…"
            : statusText(sweep.status, frac, sweep.elapsedMs, sweep.results.length, sweep.seeds)}
        </span>
      </div>
      {sweep.confirm && (
        <p className="sweep-confirm" role="alert" data-testid="sweep-confirm">
          This link runs its sweep: {sweep.points} points × {sweep.seeds.toLocaleString("en-US")} seeds, about{" "}
          {costWords(sweep.confirm)} to simulate, about {duration(sweep.confirm.seconds)} on one core.{" "}
          {sweep.confirm.budget > MONTE_CARLO_BUDGET_FAILURES
            ? `That is past the budget of ${MONTE_CARLO_BUDGET_FAILURES.toLocaleString("en-US")} failures (the command line's too).`
            : `A link asks before a run estimated past ${LINK_RUN_ASK_SECONDS} s.`}{" "}
          <button type="button" onClick={() => answerSweep(true)}>
            Run it
          </button>{" "}
          <button type="button" onClick={() => answerSweep(false)}>
            Not now
          </button>
        </p>
      )}
      {info.help && (
        <p className="muted small" data-testid="sweep-axis-help">
          {info.help}
        </p>
      )}
      <p className="muted small">
        Runs in {poolSize()} worker{poolSize() === 1 ? "" : "s"} (one per core). Every point uses the same
        seeds, so differences between points are the knob's doing, not luck.{" "}
        <span data-testid="link-run-threshold">
          A link that runs a sweep or a tornado on open asks first when its estimate passes{" "}
          {LINK_RUN_ASK_SECONDS} s on one core.
        </span>
      </p>
      {sweep.results.length > 0 && (
        <SweepChart results={sweep.results} axisId={sweep.resultAxis} svgRef={svgRef} />
      )}
    </div>
  );
}

function statusText(
  status: string,
  frac: number,
  elapsedMs: number | null,
  points: number,
  seeds: number,
): string {
  switch (status) {
    case "running":
      return `Running… ${Math.round(frac * 100)}%`;
    case "done":
      return `Done: ${points} points × ${seeds} seeds in ${((elapsedMs ?? 0) / 1000).toFixed(1)} s`;
    case "cancelled":
      return "Cancelled";
    case "error":
      return "Failed (see below)";
    default:
      return "";
  }
}

function SweepChart({
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
