/**
 * The tornado chart: each knob moved down and up, each selected policy's ETTR change as a bar per
 * row (the lighter part is the lower value or the first other category, the darker the higher),
 * rows sorted by size, the knob's values written at the bars' ends, and the advantage of one
 * policy over another as a bar of its own. The sentence above it is computed from the bars.
 * Clicking a row opens the sweep of that knob over the row's values. The workers compute it
 * (tornadoStore.ts); this only draws.
 */

import { scaleLinear } from "d3-scale";
import type { CSSProperties } from "react";
import { useRef } from "react";
import { policyOf } from "../../sim/policies/index.ts";
import type { PolicyKey } from "../../sim/policies/policyKeys.ts";
import {
  TORNADO_AMOUNT,
  TORNADO_MAX_SEEDS,
  TORNADO_PRECISION,
  type TornadoBar,
  type TornadoResult,
  type TornadoRow,
  tornadoSentence,
} from "../../sim/sweep/tornado.ts";
import { useLinkWaiting } from "../../state/linkRun.ts";
import { costWords } from "../../state/linkRunCost.ts";
import { tornadoStore, useTornadoStore } from "../../state/tornadoStore.ts";
import { NumberField } from "../form/NumberField.tsx";
import { duration } from "../format.ts";
import { policyStyle } from "../policyColour.ts";
import { useWidth } from "../useWidth.ts";
import { LinkRunAsk, RunControls } from "./RunControls.tsx";

const BAR = 9;
const GAP = 3;
const ROW_PAD = 16;

function seriesName(series: TornadoBar["series"], adv: TornadoResult["advantage"]): string {
  if (series !== "advantage") return policyOf(series).label;
  return adv ? `${policyOf(adv.subject).label} − ${policyOf(adv.reference).label}` : "";
}

/** A series' colour as --policy: its policy's (the registry's), or the accent for an advantage. */
function seriesStyle(series: TornadoBar["series"]): CSSProperties {
  return series === "advantage" ? ({ "--policy": "var(--accent)" } as CSSProperties) : policyStyle(series);
}

const pts = (v: number) => `${v >= 0 ? "+" : "−"}${Math.abs(v * 100).toFixed(1)}`;

export function Tornado() {
  const { settings, status, progress, result, plan, elapsedMs, error, confirm } = useTornadoStore((s) => s);
  const linkWaiting = useLinkWaiting("tornado");
  const { setSettings, run, cancel, answer } = tornadoStore.getState();
  const running = status === "running";
  const frac = progress && progress.total > 0 ? progress.done / progress.total : 0;
  return (
    <div>
      <div className="sweep-controls" data-control="tornado">
        <NumberField
          label="Move each knob by ±"
          unit="%"
          className="sweep-field"
          value={Math.round(settings.amount * 1000) / 10}
          min={TORNADO_AMOUNT.min * 100}
          max={TORNADO_AMOUNT.max * 100}
          disabled={running}
          testId="tornado-amount"
          onChange={(v) => setSettings({ amount: v / 100 })}
        />
        <NumberField
          label="Precision ±"
          unit="points"
          className="sweep-field"
          value={Math.round(settings.precision * 1000) / 10}
          min={TORNADO_PRECISION.min * 100}
          max={TORNADO_PRECISION.max * 100}
          disabled={running}
          testId="tornado-precision"
          onChange={(v) => setSettings({ precision: v / 100 })}
        />
        <NumberField
          label="Seeds at most"
          className="sweep-field"
          value={settings.maxSeeds}
          min={TORNADO_MAX_SEEDS.min}
          max={TORNADO_MAX_SEEDS.max}
          integer
          disabled={running}
          testId="tornado-seeds"
          onChange={(maxSeeds) => setSettings({ maxSeeds })}
        />
        <RunControls
          what="Tornado"
          runLabel="Run tornado"
          cancelLabel="Stop tornado"
          running={running}
          frac={frac}
          onRun={() => run()}
          onCancel={cancel}
          testPrefix="tornado"
          buttonIds
          status={
            status === "idle" && linkWaiting
              ? "The link's tornado starts once the page has drawn its run…"
              : statusText(status, progress, elapsedMs, result, plan?.scenarios.length ?? 0)
          }
        />
      </div>
      {confirm && (
        <LinkRunAsk
          testId="tornado-confirm"
          cost={confirm}
          onAnswer={answer}
          head={`This link runs its tornado: ${plan?.scenarios.length ?? "its"} scenarios × up to ${settings.maxSeeds.toLocaleString("en-US")} seeds, about ${costWords(confirm)} to simulate, up to ${duration(confirm.seconds)} on one core (the precision stop may end it sooner).`}
        />
      )}
      {error && <p className="error-text">{error}</p>}
      {result && plan && <TornadoChart result={result} policies={plan.policies} />}
      {result && result.inert.length > 0 && (
        <p className="muted small" data-testid="tornado-inert">
          {result.inert.length === 1 ? "1 knob is" : `${result.inert.length} knobs are`} left out: moving{" "}
          {result.inert.length === 1 ? "it" : "each"} changed no run's ETTR, for any strategy shown, on any of
          the {Math.min(...result.inert.map((r) => r.seeds))} seeds run (this scenario does not use{" "}
          {result.inert.length === 1 ? "it" : "them"}): {result.inert.map((r) => r.label).join(", ")}.
        </p>
      )}
      {plan && plan.still.length > 0 && (
        <p className="muted small" data-testid="tornado-still">
          Not moved: {plan.still.map((s) => `${s.label} (${s.why})`).join("; ")}.
        </p>
      )}
    </div>
  );
}

function statusText(
  status: string,
  progress: { done: number; total: number; seeds: number } | null,
  elapsedMs: number | null,
  result: TornadoResult | null,
  scenarios: number,
): string {
  const worst = result ? ` ±${(result.worstHalf * 100).toFixed(2)} points at worst` : "";
  switch (status) {
    case "running":
      return `Running… ${scenarios} scenarios, ${progress?.seeds ?? 0} seeds each${worst}`;
    case "done":
      return `Done: ${scenarios} scenarios, ${Math.max(0, ...(result?.rows.map((r) => r.seeds) ?? [0]))} seeds at most,${worst}, in ${((elapsedMs ?? 0) / 1000).toFixed(1)} s`;
    case "cancelled":
      return "Cancelled";
    case "error":
      return "Failed (see below)";
    default:
      return "";
  }
}

function TornadoChart({ result, policies }: { result: TornadoResult; policies: readonly PolicyKey[] }) {
  const boxRef = useRef<HTMLDivElement>(null);
  const width = useWidth(boxRef);
  const narrow = width < 600;
  const labelW = narrow ? 118 : 210;
  const right = 12;
  const innerW = Math.max(60, width - labelW - right);
  const seriesCount = (result.rows[0]?.bars.length ?? policies.length) || 1;
  const rowH = ROW_PAD + seriesCount * (BAR + GAP);
  const top = 22;
  const plotBottom = top + result.rows.length * rowH;
  // The axis's numbers under the rows, in points of ETTR.
  const height = plotBottom + 26;
  const m = Math.max(
    0.005,
    ...result.rows.flatMap((r) => r.bars.flatMap((b) => [Math.abs(b.lo), Math.abs(b.hi)])),
  );
  // Room on each side for the values written at the bars' ends.
  const x = scaleLinear()
    .domain([-m * 1.35, m * 1.35])
    .range([0, innerW]);
  const series = result.rows[0]?.bars.map((b) => b.series) ?? [];
  return (
    <div ref={boxRef} className="chart-box">
      <p data-testid="tornado-sentence">{tornadoSentence(result, policies)}</p>
      <div className="tornado-legend small" aria-hidden="true">
        {series.map((s) => (
          <span key={s}>
            <i className="tornado-swatch" style={seriesStyle(s)} data-testid={`tornado-swatch-${s}`} />{" "}
            {seriesName(s, result.advantage)}
          </span>
        ))}
      </div>
      <svg width={width} height={height} data-testid="tornado-chart">
        <title>Change in ETTR when each knob moves, largest first</title>
        <g transform={`translate(${labelW},0)`}>
          <text className="axis-title" x={x(0)} y={12} textAnchor="middle">
            ETTR change (points)
          </text>
          <line className="tornado-zero" x1={x(0)} x2={x(0)} y1={top - 4} y2={plotBottom} />
          <g data-testid="tornado-axis" transform={`translate(0,${plotBottom})`}>
            <line className="tornado-axis" x1={0} x2={innerW} y1={0} y2={0} />
            {x.ticks(narrow ? 4 : 7).map((t) => (
              <g key={t} transform={`translate(${x(t)},0)`}>
                <line className="tornado-axis" y1={0} y2={4} />
                <text className="tick" y={16} textAnchor="middle">
                  {t === 0 ? "0" : pts(t)}
                </text>
              </g>
            ))}
          </g>
        </g>
        {result.rows.map((row, i) => (
          <TornadoRowView
            key={row.plan.axis}
            row={row}
            index={i}
            y={top + i * rowH}
            labelW={labelW}
            x={x}
            narrow={narrow}
            adv={result.advantage}
          />
        ))}
      </svg>
      <p className="muted small">
        Each knob moved down and up on its own, every other knob as it is; the same seeds for every scenario,
        so a bar is the change on the same failures. Lighter: the lower value (or the first other choice);
        darker: the higher. A knob at 0 moves up by that share of its usual range. Click a row to open its
        sweep.
      </p>
      {/* Said once for every cause share row: what moving a share does to the rest of the mix. */}
      {result.rows.some((r) => r.plan.help) && (
        <p className="muted small" data-testid="tornado-help">
          {result.rows.find((r) => r.plan.help)?.plan.help}
        </p>
      )}
    </div>
  );
}

function TornadoRowView({
  row,
  index,
  y,
  labelW,
  x,
  narrow,
  adv,
}: {
  row: TornadoRow;
  index: number;
  y: number;
  labelW: number;
  x: (v: number) => number;
  narrow: boolean;
  adv: TornadoResult["advantage"];
}) {
  const open = () => {
    tornadoStore.getState().openSweep(row.plan);
    document.getElementById("sweeps-h")?.scrollIntoView({ block: "start" });
  };
  // Each end's value written once per row, above the bars, on the side its largest change went;
  // ends that went the same way share one label, nearest first, so no two labels overlap.
  const ends = row.plan.ends.map((e, j) => {
    const changes = row.bars.map((b) => b.segments[j]?.change ?? 0);
    const far = changes.reduce((a, c) => (Math.abs(c) > Math.abs(a) ? c : a), 0);
    return { text: e.text, change: far };
  });
  const endLabels = [false, true].flatMap((right) => {
    const side = ends
      .filter((e) => e.change >= 0 === right)
      .sort((a, b) => Math.abs(a.change) - Math.abs(b.change));
    if (side.length === 0) return [];
    const far = side.at(-1)?.change ?? 0;
    const text = side.map((e) => e.text).join(" · ");
    // Kept inside the plot (about 6 px a character): above the bars, so it may cross one.
    const w = 6 * text.length;
    const at = right
      ? Math.min(x(far) + 4, Math.max(x(0) + 4, 2 * x(0) - w))
      : Math.max(x(far) - 4, Math.min(x(0) - 4, w));
    return [{ text, right, at }];
  });
  const summary = row.bars
    .map(
      (b) =>
        `${seriesName(b.series, adv)}: ${b.segments.map((s) => `${s.text} ${pts(s.change)} ±${(s.half * 100).toFixed(1)}`).join(", ")}`,
    )
    .join("; ");
  // About 7 px a character: a phone's 110 px label column holds 15 (the whole name is in the title).
  const name = narrow ? (row.plan.shortLabel ?? row.plan.label) : row.plan.label;
  const label = narrow && name.length > 15 ? `${name.slice(0, 14)}…` : name;
  return (
    // biome-ignore lint/a11y/useSemanticElements: an SVG row cannot be a <button>
    <g
      className="tornado-row"
      role="button"
      tabIndex={0}
      data-testid={`tornado-row-${index}`}
      data-axis={row.plan.axis}
      data-size={row.size}
      aria-label={`${row.plan.label} from ${row.plan.baseText}: ${summary} points. Open its sweep.`}
      transform={`translate(0,${y})`}
      onClick={open}
      onKeyDown={(ev) => {
        if (ev.key === "Enter" || ev.key === " ") {
          ev.preventDefault();
          open();
        }
      }}
    >
      <title>
        {row.plan.label} from {row.plan.baseText} ({row.seeds} seeds): {summary} points. Click to open its
        sweep.
      </title>
      <rect
        className="tornado-hit"
        x={0}
        y={0}
        width={labelW + 2 * x(0)}
        height={ROW_PAD + row.bars.length * (BAR + GAP)}
      />
      <text className="tornado-label" x={labelW - 8} y={12} textAnchor="end">
        {label}
      </text>
      <text className="tornado-base muted" x={labelW - 8} y={25} textAnchor="end">
        {row.plan.baseText}
      </text>
      <g transform={`translate(${labelW},0)`}>
        {endLabels.map((l) => (
          <text
            key={l.right ? "up" : "down"}
            className="tornado-end"
            data-testid={`tornado-end-${index}-${l.right ? "right" : "left"}`}
            x={l.at}
            y={12}
            textAnchor={l.right ? "start" : "end"}
          >
            {l.text}
          </text>
        ))}
        {row.bars.map((b, k) => (
          <g
            key={b.series}
            transform={`translate(0,${ROW_PAD + k * (BAR + GAP)})`}
            style={seriesStyle(b.series)}
          >
            {/* Largest first, so an end that moves less on the same side stays visible on top. */}
            {[...b.segments]
              .sort((p, q) => Math.abs(q.change) - Math.abs(p.change))
              .map((s) => (
                <rect
                  key={s.end}
                  className={`tornado-bar ${s.end === 0 && b.segments.length > 1 ? "tn-low" : ""}`}
                  x={Math.min(x(0), x(s.change))}
                  width={Math.max(1, Math.abs(x(s.change) - x(0)))}
                  y={0}
                  height={BAR}
                />
              ))}
          </g>
        ))}
      </g>
    </g>
  );
}
