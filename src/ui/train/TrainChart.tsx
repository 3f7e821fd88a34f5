/**
 * The runs side by side: held-out loss against simulated wall time (every step costs the
 * scenario's step time, every recovery its detect / restart / rejoin times) and against steps;
 * under the time panel, lanes showing what each replica did when.
 */
import { scaleLinear } from "d3-scale";
import { line } from "d3-shape";
import type { EvalPoint, LaneState, RunSnapshot } from "../../train/run.ts";
import { runName } from "../../train/session.ts";
import type { MeasuredQ } from "../../train/stepEquivalence.ts";

const W = 640;
const H = 260;
const M = { top: 12, right: 12, bottom: 38, left: 48 };

export const RUN_COLOR: Record<string, string> = {
  baseline: "#6b7280",
  "ft-none": "#2f9e6e",
  "ft-linear": "#2f6fde",
  "ft-sqrt": "#9b6bd6",
  sync: "#d1495b",
  ddp: "#6b7280",
  "diloco-clean": "#2f6fde",
  diloco: "#d98a1c",
};

export function runLabel(r: RunSnapshot): string {
  return runName(r.spec);
}

const LANE_COLOR: Record<LaneState, string> = {
  train: "var(--st-training)",
  heal: "var(--st-catchup)",
  down: "var(--st-down)",
  stall: "var(--st-stalled)",
  redo: "var(--st-rolledback)",
  sync: "var(--st-checkpoint)",
  idle: "var(--st-waitspare)",
};

const LANE_TEXT: Record<LaneState, string> = {
  train: "training",
  heal: "caught up, zero gradient",
  down: "down",
  stall: "stalled (detect / rejoin / restart)",
  redo: "redoing rolled-back steps",
  sync: "outer sync (DiLoCo)",
  idle: "back, idle until the next round",
};

/** The sync run replays steps after a rollback: per step, its last evaluation. */
function byStep(evals: readonly EvalPoint[]): EvalPoint[] {
  const m = new Map<number, EvalPoint>();
  for (const e of evals) m.set(e.step, e);
  return [...m.values()].sort((a, b) => a.step - b.step);
}

function Panel({
  runs,
  xOf,
  xMax,
  xLabel,
  label,
  testId,
  q = null,
}: {
  runs: RunSnapshot[];
  xOf: (e: EvalPoint) => number;
  xMax: number;
  xLabel: string;
  label: string;
  testId: string;
  /** DiLoCo mode, the steps panel: DDP's final loss, and where DiLoCo reached it. */
  q?: MeasuredQ | null;
}) {
  const all = runs.flatMap((r) => r.evals);
  const yMax = Math.max(1.7, ...all.map((e) => e.loss));
  const x = scaleLinear()
    .domain([0, xMax || 1])
    .range([M.left, W - M.right]);
  const y = scaleLinear()
    .domain([0, yMax])
    .nice()
    .range([H - M.bottom, M.top]);
  const path = line<EvalPoint>()
    .x((e) => x(xOf(e)))
    .y((e) => y(e.loss));
  return (
    <svg viewBox={`0 0 ${W} ${H}`} className="train-chart" role="img" aria-label={label} data-testid={testId}>
      {y.ticks(5).map((t) => (
        <g key={t}>
          <line x1={M.left} x2={W - M.right} y1={y(t)} y2={y(t)} className="train-grid" />
          <text x={M.left - 6} y={y(t) + 4} textAnchor="end" className="train-tick">
            {t}
          </text>
        </g>
      ))}
      {x.ticks(6).map((t) => (
        <text key={t} x={x(t)} y={H - M.bottom + 16} textAnchor="middle" className="train-tick">
          {t}
        </text>
      ))}
      <text x={(M.left + W - M.right) / 2} y={H - 6} textAnchor="middle" className="train-axis">
        {xLabel}
      </text>
      <text
        x={12}
        y={(M.top + H - M.bottom) / 2}
        transform={`rotate(-90 12 ${(M.top + H - M.bottom) / 2})`}
        textAnchor="middle"
        className="train-axis"
      >
        held-out loss
      </text>
      {q?.target != null && (
        <g data-testid="train-q-target">
          <line x1={M.left} x2={W - M.right} y1={y(q.target)} y2={y(q.target)} className="train-target" />
          <text x={W - M.right - 4} y={y(q.target) - 4} textAnchor="end" className="train-tick">
            DDP&apos;s final loss {q.target.toFixed(3)}
          </text>
          {q.reachedAt !== null && (
            <line
              x1={x(q.reachedAt)}
              x2={x(q.reachedAt)}
              y1={y(q.target)}
              y2={H - M.bottom}
              className="train-target"
            />
          )}
        </g>
      )}
      {runs.map((r) => {
        const pts = testId.endsWith("steps") ? byStep(r.evals) : r.evals;
        return pts.length > 0 ? (
          <path
            key={r.spec.id}
            d={path(pts) ?? ""}
            className="train-line"
            data-run={r.spec.id}
            stroke={RUN_COLOR[r.spec.id] ?? "currentColor"}
            strokeDasharray={r.spec.kind === "sync" || r.spec.kind === "diloco-clean" ? "6 3" : undefined}
          />
        ) : null;
      })}
    </svg>
  );
}

/** The runs whose lanes show: the first FT-HSDP run and the synchronous one, or DiLoCo with failures. */
function lanesOf(runs: RunSnapshot[]): RunSnapshot[] {
  const diloco = runs.find((r) => r.spec.kind === "diloco");
  if (diloco) return [diloco];
  const shown = runs.filter((r) => r.spec.kind !== "baseline").slice(0, 1);
  const sync = runs.find((r) => r.spec.kind === "sync");
  if (sync && !shown.includes(sync)) shown.push(sync);
  return shown;
}

function Lanes({ shown, tMax }: { shown: RunSnapshot[]; tMax: number }) {
  const runs = shown;
  const replicas = Math.max(0, ...runs.flatMap((r) => r.segments.map((s) => s.replica + 1)));
  const laneH = 12;
  const x = scaleLinear()
    .domain([0, tMax || 1])
    .range([M.left, W - M.right]);
  const rows = shown.flatMap((r) => Array.from({ length: replicas }, (_, k) => ({ run: r, replica: k })));
  const height = rows.length * laneH + shown.length * 16 + 4;
  let yAt = 0;
  return (
    <svg
      viewBox={`0 0 ${W} ${height}`}
      className="train-lanes"
      role="img"
      aria-label="Replica lanes: who trained when"
      data-testid="train-lanes"
    >
      {shown.map((r) => {
        const top = yAt;
        yAt += 16 + replicas * laneH;
        return (
          <g key={r.spec.id}>
            <text x={M.left} y={top + 12} className="train-tick">
              {runLabel(r)}
            </text>
            {Array.from({ length: replicas }, (_, i) => i).map((k) => (
              <text
                key={k}
                x={M.left - 6}
                y={top + 16 + k * laneH + 10}
                textAnchor="end"
                className="train-tick"
              >
                r{k}
              </text>
            ))}
            {r.segments.map((s) => (
              <rect
                key={`${s.replica}-${s.t0}`}
                x={x(s.t0)}
                width={Math.max(0.5, x(s.t1) - x(s.t0))}
                y={top + 16 + s.replica * laneH}
                height={laneH - 2}
                fill={LANE_COLOR[s.state]}
              >
                <title>{`replica ${s.replica}: ${LANE_TEXT[s.state]}, ${(s.t0 / 60).toFixed(1)}–${(s.t1 / 60).toFixed(1)} min`}</title>
              </rect>
            ))}
          </g>
        );
      })}
    </svg>
  );
}

export function TrainChart({
  runs,
  steps,
  q = null,
}: {
  runs: RunSnapshot[];
  steps: number;
  q?: MeasuredQ | null;
}) {
  const tMax = Math.max(0, ...runs.map((r) => r.t));
  const shown = lanesOf(runs);
  // The legend names the lane states these lanes can show.
  const states = new Set(shown.flatMap((r) => r.segments.map((s) => s.state)));
  const minutes = tMax / 60;
  return (
    <div className="train-charts">
      <figure>
        <figcaption>Held-out loss against simulated wall time</figcaption>
        <Panel
          runs={runs}
          xOf={(e) => e.t / 60}
          xMax={minutes}
          xLabel="simulated wall time (minutes)"
          label="Held-out loss against simulated wall time"
          testId="train-chart-time"
        />
        <Lanes shown={shown} tMax={tMax} />
        <ul className="train-legend" aria-label="Lane colours">
          {(Object.keys(LANE_TEXT) as LaneState[])
            .filter((s) => states.has(s))
            .map((s) => (
              <li key={s}>
                <span className="swatch" style={{ background: LANE_COLOR[s] }} /> {LANE_TEXT[s]}
              </li>
            ))}
        </ul>
      </figure>
      <figure>
        <figcaption>Held-out loss against steps</figcaption>
        <Panel
          runs={runs}
          xOf={(e) => e.step}
          xMax={steps}
          xLabel="step"
          label="Held-out loss against steps"
          testId="train-chart-steps"
          q={q}
        />
        <table className="train-runs" aria-label="Runs">
          <thead>
            <tr>
              <th>run</th>
              <th>step</th>
              <th>wall time</th>
              <th>held-out loss</th>
              <th>accuracy</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((r) => {
              const last = r.evals.at(-1);
              return (
                <tr key={r.spec.id} data-run={r.spec.id}>
                  <td>
                    <span className="swatch" style={{ background: RUN_COLOR[r.spec.id] }} /> {runLabel(r)}
                  </td>
                  <td>{r.step}</td>
                  <td>{(r.t / 60).toFixed(1)} min</td>
                  <td>{last ? last.loss.toFixed(3) : "–"}</td>
                  <td>{last ? `${(last.accuracy * 100).toFixed(1)} %` : "–"}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </figure>
    </div>
  );
}
