/**
 * "Replay the log" (docs/model.md §5): the log's own failures on its fleet through every selected
 * strategy, beside the fitted model's Monte Carlo band on the same fleet. The button loads both
 * as one edit (Back undoes it): the replay is the scenario on screen, the model is pinned as the
 * baseline, so the link carries both and a fresh page shows the same numbers. The comparison is
 * read from the stores, not from the fit: it shows wherever the pinned baseline is the model of
 * the replay on screen (isModelOf), the fit's file in hand or not.
 */
import { useMemo } from "react";
import type { FitReplay } from "../../sim/fit/fitFile.ts";
import type { FittedScenario } from "../../sim/fit/fitScenario.ts";
import { nthPercentile, type Placement, placeAmong } from "../../sim/fit/replayPercentile.ts";
import { isModelOf, replayPair } from "../../sim/fit/replayScenarios.ts";
import type { EttrEstimate } from "../../sim/monteCarlo/mcStream.ts";
import { selectedPolicies } from "../../sim/policies/index.ts";
import { derived } from "../../sim/scenario/index.ts";
import { asHistoryEntry } from "../../state/address.ts";
import { mcStore, useMcStore } from "../../state/mcStore.ts";
import { appStore, useAppStore } from "../../state/store.ts";
import { count, pct } from "../format.ts";
import { policyStyle } from "../policyColour.ts";

/** Load the replay and pin its model, as one edit; the refusal's message, or null when loaded. */
export function loadReplay(fitted: FittedScenario, replay: FitReplay): string | null {
  if (!replay.ok) return replay.why;
  try {
    const { model, replay: scenario } = replayPair(appStore.getState().scenario, fitted, replay.log);
    asHistoryEntry(() => {
      mcStore.setState({ baseline: model });
      appStore.getState().setScenario(scenario);
    });
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

/** What a percentile says about the model, in words a person acts on. */
function verdict(p: Placement): string {
  if (p.percentile < 5)
    return "worse than 95 % of the model's runs: this log held more trouble than the fitted laws expect (a cluster of failures, or a lemon, beyond the fit)";
  if (p.percentile > 95)
    return "better than 95 % of the model's runs: this log was kinder than the fitted laws expect";
  return "within the model's range: the fitted laws describe this fleet's failures for this strategy";
}

const W = 320;
const ROW = 26;
const LEFT = 8;
const RIGHT = 8;

/** One strategy's strip: the model's p5 – p95 band and mean, the log's value as a diamond. */
function Strip({ e, value, lo, hi }: { e: EttrEstimate; value: number; lo: number; hi: number }) {
  const x = (v: number) => LEFT + ((v - lo) / (hi - lo || 1)) * (W - LEFT - RIGHT);
  const y = ROW / 2;
  const vx = x(value);
  return (
    <svg
      viewBox={`0 0 ${W} ${ROW}`}
      className="fit-replay-strip"
      role="img"
      aria-label={`The model's runs from ${pct(e.p5)} to ${pct(e.p95)} (p5 – p95), mean ${pct(e.mean)}; the log ${pct(value)}`}
    >
      <line x1={LEFT} x2={W - RIGHT} y1={y} y2={y} className="fit-replay-axis" />
      <rect
        x={x(e.p5)}
        y={y - 6}
        width={Math.max(1, x(e.p95) - x(e.p5))}
        height={12}
        className="fit-replay-band"
      />
      <line x1={x(e.mean)} x2={x(e.mean)} y1={y - 8} y2={y + 8} className="fit-replay-mean" />
      <path d={`M${vx} ${y - 8}L${vx + 7} ${y}L${vx} ${y + 8}L${vx - 7} ${y}Z`} className="fit-replay-log" />
    </svg>
  );
}

export function ReplayVsModel() {
  const scenario = useAppStore((s) => s.scenario);
  // The worker's run comes back as a copy: "not running" is what says it is this scenario's.
  const run = useAppStore((s) => (s.running || s.runError ? null : s.run));
  const baseline = useMcStore((s) => s.baseline);
  const base = useMcStore((s) => s.base);
  const isModel = useMemo(() => baseline !== null && isModelOf(baseline, scenario), [baseline, scenario]);
  if (!isModel || !baseline) return null;
  const band = base && base.scenario === baseline ? base.snapshot : null;
  const rows = selectedPolicies(scenario).map((p) => {
    const e = band?.ettr[p.key];
    const value = run?.[p.key]?.ettr;
    return { p, e, value, place: e && value !== undefined ? placeAmong(e.samples, value) : null };
  });
  const xs = rows.flatMap((r) => (r.e && r.value !== undefined ? [r.e.p5, r.e.p95, r.value] : []));
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  const { hosts } = derived(scenario);
  // Whole days as such; a window like 119.54 days to one decimal, not rounded up to a claim of 120.
  const d = scenario.training.days;
  const days = count(d, Number.isInteger(d) ? 0 : d < 1 ? 3 : 1);
  const done = band?.stop != null;
  return (
    <section
      className="fit-replay"
      aria-label="The log replayed beside the model"
      data-testid="fit-replay"
      data-done={done && run ? "true" : "false"}
    >
      <h3>The log replayed, beside the fitted model</h3>
      <p>
        The log's own failures, struck on its fleet ({count(hosts)} hosts, {days} days), give one value per
        strategy (◆). The fitted model draws failures from the fitted laws on the same fleet, run after run:
        the bar is where 90 % of its runs fell (p5 – p95), the tick their mean.{" "}
        {band ? (
          <span data-testid="fit-replay-runs">
            {done ? `${count(band.n)} runs of the model.` : `${count(band.n)} runs of the model so far…`}
          </span>
        ) : (
          "The model's runs are starting…"
        )}
      </p>
      <ul className="fit-replay-rows">
        {rows.map(({ p, e, value, place }) => (
          <li key={p.key} style={policyStyle(p.key)} data-testid={`fit-replay-${p.key}`}>
            <p>
              <strong>{p.label}</strong>: the log{" "}
              <span data-testid={`fit-replay-log-${p.key}`}>{value === undefined ? "…" : pct(value)}</span>,
              the model {e ? `${pct(e.mean)} (p5 – p95 ${pct(e.p5)} – ${pct(e.p95)})` : "…"}.{" "}
              {place && (
                <span data-testid={`fit-replay-pct-${p.key}`}>
                  The real {days} days fell at the {nthPercentile(place)} percentile of the model's{" "}
                  {count(place.runs)} runs: {verdict(place)}.
                </span>
              )}
            </p>
            {e && value !== undefined && hi > lo && <Strip e={e} value={value} lo={lo} hi={hi} />}
          </li>
        ))}
      </ul>
      {xs.length > 0 && (
        <p className="muted">
          ETTR from {pct(lo)} (left) to {pct(hi)} (right). The model is pinned as the baseline; Back undoes
          the replay and the pin together.
        </p>
      )}
    </section>
  );
}
