/**
 * The Monte Carlo's settings and state above the cards: the precision it runs to, the cap on
 * runs, where it stands (running, precision reached, cap reached), how many workers share it,
 * and the baseline pin. Precision, cap and pin are in the link (mcStore.ts).
 */
import { DISPLAY_SETTINGS, toShown, toStored } from "../../link/displaySettings.ts";
import { MIN_RUNS } from "../../sim/monteCarlo/mcStream.ts";
import { replayIsOneRun } from "../../sim/scenario/derived.ts";
import { mcPoolSize } from "../../state/mcPool.ts";
import { mcStore, useMcStore } from "../../state/mcStore.ts";
import { useAppStore } from "../../state/store.ts";
import { NumberField } from "../form/NumberField.tsx";
import { count } from "../format.ts";

function points(precision: number): string {
  return `±${toShown("mcPrecision", precision)}`;
}

function Status() {
  const scenario = useAppStore((s) => s.scenario);
  const current = useMcStore((s) => s.current);
  const precision = useMcStore((s) => s.precision);
  const cap = useMcStore((s) => s.cap);
  const snap = current && current.scenario === scenario ? current.snapshot : null;
  const workers = mcPoolSize();
  const spread = `on ${workers} ${workers === 1 ? "worker" : "workers"}`;
  let text: string;
  // §5: a replay with fixed repairs is the same run for every seed: one run, no Monte Carlo.
  if (replayIsOneRun(scenario))
    text = "A replay of a log: every seed meets the same failures, so one run is the whole answer (no band).";
  else if (!snap) text = `Monte Carlo starting ${spread}…`;
  else if (snap.stop === "precision" && snap.kept === snap.n)
    text = `Precision ${points(precision)} points reached: the ${count(snap.n)} runs already done are kept (every strategy). A fresh start, such as this page's link, stops as soon as it is reached, from ${count(Math.min(MIN_RUNS, cap))} runs on.`;
  else if (snap.stop === "precision")
    text = `Precision ${points(precision)} points reached after ${count(snap.n)} runs (every strategy).`;
  else if (snap.stop === "cap")
    text = `Cap reached: ${count(snap.n)} runs, before the precision ${points(precision)} points.`;
  else
    text = `Running ${spread}: ${count(snap.n)} runs so far, until ${points(precision)} points or ${count(cap)} runs.`;
  return (
    <p
      className="muted mc-status"
      data-testid="mc-status"
      data-stop={snap?.stop ?? "running"}
      aria-live="polite"
    >
      {text}
    </p>
  );
}

export function McControls() {
  const precision = useMcStore((s) => s.precision);
  const cap = useMcStore((s) => s.cap);
  const baseline = useMcStore((s) => s.baseline);
  const baseError = useMcStore((s) => s.baseError);
  const scenario = useAppStore((s) => s.scenario);
  const refusal = (e: unknown) => [(e as Error).message];
  return (
    <div className="mc-controls" data-control="mc-settings">
      <div className="mc-settings">
        <NumberField
          label="Precision (± points, 95%)"
          testId="mc.precision"
          className="knob mc-field"
          help="The Monte Carlo adds runs until every strategy's mean ETTR is known to within this, at 95% confidence (at least 100 runs)."
          value={toShown("mcPrecision", precision)}
          min={DISPLAY_SETTINGS.mcPrecision.min}
          max={DISPLAY_SETTINGS.mcPrecision.max}
          onChange={(v) => {
            try {
              mcStore.getState().setPrecision(toStored("mcPrecision", v));
              return null;
            } catch (e) {
              return refusal(e);
            }
          }}
        />
        <NumberField
          label="Cap on runs"
          testId="mc.cap"
          className="knob mc-field"
          help="The Monte Carlo never runs more seeds than this, precision reached or not."
          value={cap}
          min={DISPLAY_SETTINGS.mcCap.min}
          max={DISPLAY_SETTINGS.mcCap.max}
          integer
          onChange={(v) => {
            try {
              mcStore.getState().setCap(v);
              return null;
            } catch (e) {
              return refusal(e);
            }
          }}
        />
        <div className="mc-pin">
          {baseline ? (
            <>
              <span className="muted" data-testid="baseline-pinned">
                Baseline pinned{baseline === scenario ? " (the scenario on screen)" : ""}:{" "}
                {baseline.name || "a scenario"}, {count(baseline.cluster.gpus)} GPUs,{" "}
                {count(baseline.cluster.replicas)} replicas.
              </span>{" "}
              <button type="button" data-testid="baseline-unpin" onClick={() => mcStore.getState().unpin()}>
                Unpin
              </button>
            </>
          ) : (
            <button type="button" data-testid="baseline-pin" onClick={() => mcStore.getState().pin()}>
              Pin as baseline
            </button>
          )}
        </div>
      </div>
      <Status />
      {baseError ? (
        <p className="error-text" role="alert">
          The baseline&apos;s Monte Carlo failed: {baseError}.
        </p>
      ) : null}
    </div>
  );
}
