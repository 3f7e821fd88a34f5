/**
 * What-if sweeps: each selected policy's ETTR along one axis (cluster size, failure rate, replicas
 * or any field of the scenario), Monte Carlo mean with its p5–p95 band, computed by the worker
 * pool. An enumerated field's axis is categories: a point and its p5–p95 bar per category, no line
 * between them (there is nothing between "packed" and "striped"). Clicking a point loads that
 * scenario. This file holds the controls (axis, range, points, seeds, run and cancel, the link's
 * ask); the chart is SweepChart.tsx.
 */
import { useMemo } from "react";
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
} from "../../sim/sweep/index.ts";
import { explorerStore, useExplorerStore } from "../../state/explorerStore.ts";
import { useLinkWaiting } from "../../state/linkRun.ts";
import { costWords, LINK_RUN_ASK_SECONDS } from "../../state/linkRunCost.ts";
import { useAppStore } from "../../state/store.ts";
import { poolSize } from "../../state/sweepPool.ts";
import { NumberField } from "../form/NumberField.tsx";
import { duration } from "../format.ts";
import { LinkRunAsk, RunControls } from "./RunControls.tsx";
import { SweepChart } from "./SweepChart.tsx";

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
        <RunControls
          what="Sweep"
          runLabel="Run sweep"
          cancelLabel="Cancel"
          running={running}
          frac={frac}
          onRun={runSweep}
          onCancel={cancelSweep}
          testPrefix="sweep"
          status={
            sweep.status === "idle" && linkWaiting
              ? "The link's sweep starts once the page has drawn its run…"
              : statusText(sweep.status, frac, sweep.elapsedMs, sweep.results.length, sweep.seeds)
          }
        />
      </div>
      {sweep.confirm && (
        <LinkRunAsk
          testId="sweep-confirm"
          cost={sweep.confirm}
          onAnswer={answerSweep}
          head={`This link runs its sweep: ${sweep.points} points × ${sweep.seeds.toLocaleString("en-US")} seeds, about ${costWords(sweep.confirm)} to simulate, about ${duration(sweep.confirm.seconds)} on one core.`}
        />
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
