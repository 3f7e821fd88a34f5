/**
 * The fitted log's four charts (§5), each a person reads at a glance: the gaps between failures
 * against both fitted laws, fault starts per 30-day window against one constant rate, per-host
 * counts against alike hosts (Poisson), and repair times against the fitted lognormal.
 */
import { type ScaleLinear, type ScaleLogarithmic, scaleLinear, scaleLog } from "d3-scale";
import { line } from "d3-shape";
import type { ReactNode } from "react";
import type { LogFit } from "../../sim/fit/fitLog.ts";
import { logPoisson } from "../../sim/fit/specialFunctions.ts";

const W = 340;
const H = 200;
const M = { top: 34, right: 12, bottom: 36, left: 44 };
const X0 = M.left;
const X1 = W - M.right;
const Y0 = H - M.bottom;
const Y1 = M.top;

type X = ScaleLinear<number, number> | ScaleLogarithmic<number, number>;

function Frame(props: {
  title: string;
  caption: string;
  x: X;
  y: ScaleLinear<number, number>;
  xLabel: string;
  yLabel: string;
  xTicks: number[];
  xTick: (t: number) => string;
  children: ReactNode;
  legend: [string, string][];
}) {
  const { title, caption, x, y, xLabel, yLabel, children, legend } = props;
  return (
    <figure className="fit-chart">
      <figcaption>
        <strong>{title}</strong> {caption}
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${title} ${caption}`}>
        {y.ticks(4).map((t) => (
          <g key={`y${t}`}>
            <line x1={X0} x2={X1} y1={y(t)} y2={y(t)} className="grid" />
            <text x={X0 - 5} y={y(t)} dy="0.32em" textAnchor="end" className="tick">
              {t.toLocaleString("en-US")}
            </text>
          </g>
        ))}
        {props.xTicks.map((t) => (
          <text key={`x${t}`} x={x(t)} y={Y0 + 14} textAnchor="middle" className="tick">
            {props.xTick(t)}
          </text>
        ))}
        <text x={(X0 + X1) / 2} y={H - 4} textAnchor="middle" className="axis-label">
          {xLabel}
        </text>
        <text
          transform={`translate(11 ${(Y0 + Y1) / 2}) rotate(-90)`}
          textAnchor="middle"
          className="axis-label"
        >
          {yLabel}
        </text>
        {children}
        {legend.map(([cls, name], i) => (
          // Above the plot, two to a row: never over a bar or a curve.
          <g key={cls} transform={`translate(${X0 + (i % 2) * 150} ${8 + Math.floor(i / 2) * 13})`}>
            <rect
              width={12}
              height={cls === "bar" ? 8 : 3}
              y={cls === "bar" ? -4 : -2}
              className={`key ${cls}`}
            />
            <text x={16} dy="0.32em" className="legend">
              {name}
            </text>
          </g>
        ))}
      </svg>
    </figure>
  );
}

/** Powers of ten (and the hour and day marks) inside a log scale's domain. */
function logTicks(lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let p = Math.floor(Math.log10(lo)); p <= Math.ceil(Math.log10(hi)); p++) {
    const t = 10 ** p;
    if (t >= lo && t <= hi) out.push(t);
  }
  return out;
}

const STEPS = 1000;

const hoursTick = (t: number) => (t >= 1 ? t.toLocaleString("en-US") : String(t));

/** An empirical CDF (steps) and fitted CDFs over log hours. */
function CdfChart({
  title,
  caption,
  hours,
  laws,
}: {
  title: string;
  caption: string;
  hours: Float64Array;
  laws: [string, string, (h: number) => number][];
}) {
  const sorted = Float64Array.from(hours)
    .filter((h) => h > 0)
    .sort();
  if (sorted.length === 0) return null;
  const lo = Math.max(sorted[0]! / 2, 1e-3);
  const hi = sorted[sorted.length - 1]! * 2;
  const x = scaleLog().domain([lo, hi]).range([X0, X1]);
  const y = scaleLinear().domain([0, 1]).range([Y0, Y1]);
  // At most STEPS steps: a 100,000-gap log draws the same curve from every hundredth, at a pixel's
  // resolution, and a path of 200,000 points would hold the main thread.
  const n = sorted.length;
  const stride = Math.max(1, Math.ceil(n / STEPS));
  const steps: [number, number][] = [[lo, 0]];
  for (let i = 0; i < n; i += stride)
    steps.push([sorted[i]!, i / n], [sorted[i]!, Math.min(n, i + stride) / n]);
  steps.push([hi, 1]);
  const path = line<[number, number]>()
    .x((d) => x(d[0]))
    .y((d) => y(d[1]));
  const grid = Array.from({ length: 121 }, (_, i) => lo * (hi / lo) ** (i / 120));
  return (
    <Frame
      title={title}
      caption={caption}
      x={x}
      y={y}
      xLabel="hours (log scale)"
      yLabel="share at or below"
      xTicks={logTicks(lo, hi)}
      xTick={hoursTick}
      legend={[["seen", "in the log"], ...laws.map(([cls, name]) => [cls, name] as [string, string])]}
    >
      <path d={path(steps) ?? ""} className="seen" />
      {laws.map(([cls, , cdf]) => (
        <path key={cls} d={path(grid.map((h) => [h, cdf(h)])) ?? ""} className={cls} />
      ))}
    </Frame>
  );
}

/** Bars of observed counts with the expected ones as marks. */
function BarChart({
  title,
  caption,
  xLabel,
  yLabel,
  labels,
  seen,
  expected,
  expectedName,
}: {
  title: string;
  caption: string;
  xLabel: string;
  yLabel: string;
  labels: string[];
  seen: number[];
  expected: number[];
  expectedName: string;
}) {
  const x = scaleLinear().domain([0, seen.length]).range([X0, X1]);
  const y = scaleLinear()
    .domain([0, Math.max(...seen, ...expected, 1) * 1.1])
    .nice()
    .range([Y0, Y1]);
  const bw = Math.max(1, x(1) - x(0) - 2);
  const every = Math.ceil(seen.length / 8);
  const ticks = seen.map((_, i) => i).filter((i) => i % every === 0);
  return (
    <Frame
      title={title}
      caption={caption}
      x={x}
      y={y}
      xLabel={xLabel}
      yLabel={yLabel}
      xTicks={ticks.map((i) => i + 0.5)}
      xTick={(t) => labels[Math.floor(t)] ?? ""}
      legend={[
        ["bar", "in the log"],
        ["fitted", expectedName],
      ]}
    >
      {seen.map((v, i) => (
        <rect key={`b${labels[i]}`} x={x(i) + 1} width={bw} y={y(v)} height={Y0 - y(v)} className="bar" />
      ))}
      {expected.map((v, i) => (
        <line key={`e${labels[i]}`} x1={x(i) + 1} x2={x(i) + 1 + bw} y1={y(v)} y2={y(v)} className="fitted" />
      ))}
    </Frame>
  );
}

export function FitCharts({ fit }: { fit: LogFit }) {
  const charts: ReactNode[] = [];
  const e = fit.exponential;
  const w = fit.weibull;
  if (e && fit.gapsSeconds.length > 0) {
    const laws: [string, string, (h: number) => number][] = [
      ["poisson", "random (Poisson)", (h) => 1 - Math.exp(-e.rate * h * 3600)],
    ];
    if (w)
      laws.push([
        "fitted",
        `Weibull, k = ${w.shape.toFixed(2)}`,
        (h) => 1 - Math.exp(-(((h * 3600) / w.scaleSeconds) ** w.shape)),
      ]);
    charts.push(
      <CdfChart
        key="gaps"
        title="Gaps between failures."
        caption="A bursty log has more short gaps and more long ones than random arrivals: its steps start above the Poisson curve and end below it."
        hours={fit.gapsSeconds.map((s) => s / 3600)}
        laws={laws}
      />,
    );
  }
  const windows = fit.drift.windows;
  if (windows.length > 1) {
    const total = windows.reduce((a, b) => a + b, 0);
    const width = 30;
    const lengths = windows.map((_, i) => Math.min(width, fit.days - i * width));
    charts.push(
      <BarChart
        key="drift"
        title="Fault starts per 30 days."
        caption="Against one constant rate (the last window may be shorter)."
        xLabel="30-day window"
        yLabel="fault starts"
        labels={windows.map((_, i) => String(i + 1))}
        seen={windows}
        expected={lengths.map((l) => (total * l) / fit.days)}
        expectedName="one constant rate"
      />,
    );
  }
  if (fit.hostCounts.length > 0) {
    const max = Math.max(...fit.hostCounts);
    const shown = Math.min(max, 20);
    const seen = new Array<number>(shown + 1).fill(0);
    for (const c of fit.hostCounts) seen[Math.min(c, shown)]! += 1;
    const mean = fit.hostCounts.reduce((a, b) => a + b, 0) / fit.hostCounts.length;
    const expected = seen.map((_, c) => fit.hostCounts.length * Math.exp(logPoisson(c, mean)));
    const labels = seen.map((_, c) => (c === shown && max > shown ? `${c}+` : String(c)));
    charts.push(
      <BarChart
        key="hosts"
        title="Fault starts per host."
        caption="Against alike hosts failing at random (Poisson): lemons show as a tail of hosts with many faults."
        xLabel="fault starts on a host"
        yLabel="hosts"
        labels={labels}
        seen={seen}
        expected={expected}
        expectedName="alike hosts"
      />,
    );
  }
  const law = fit.repairs?.lognormal;
  if (fit.repairHours.length > 0) {
    const laws: [string, string, (h: number) => number][] = [];
    if (law)
      laws.push([
        "fitted",
        `lognormal, median ${Math.exp(law.mu).toPrecision(2)} h`,
        (h) => normalCdf((Math.log(h) - law.mu) / law.sigma),
      ]);
    charts.push(
      <CdfChart
        key="repairs"
        title="Repair times."
        caption="From each fault's start to its end, against the fitted lognormal law."
        hours={fit.repairHours}
        laws={laws}
      />,
    );
  }
  return <div className="fit-charts">{charts}</div>;
}

/** Φ(z) by Abramowitz & Stegun 26.2.17 (error below 7.5e−8: plenty for a chart). */
function normalCdf(z: number): number {
  const t = 1 / (1 + 0.2316419 * Math.abs(z));
  const d = 0.3989422804014327 * Math.exp((-z * z) / 2);
  const p =
    d * t * (0.31938153 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
  return z >= 0 ? 1 - p : p;
}
