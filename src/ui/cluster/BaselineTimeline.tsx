/**
 * The pinned baseline's timeline (Compare with…), stacked under the scenario on screen's on one
 * time axis: the same window, so zooming either zooms both, and the two runs' failures and
 * recoveries line up in time. Its run is recorded in the worker once per baseline (clusterRunner.ts).
 */
import { useRef } from "react";
import { primeRecoveryIndex } from "../../sim/recovery/recoveryIndex.ts";
import { derived } from "../../sim/scenario/derived.ts";
import type { Scenario } from "../../sim/scenario/index.ts";
import { scenarioDiff } from "../../sim/scenario/scenarioDiff.ts";
import { useMcStore } from "../../state/mcStore.ts";
import { ErrorBoundary } from "../boundary/ErrorBoundary.tsx";
import { Timeline } from "../timeline/Timeline.tsx";
import { baselineAxisWords } from "./baselineAxis.ts";
import { inSentence } from "./sweepPeak.ts";

/** Differing fields named in the heading's sentence; the comparison panel lists them all. */
const NAMED_DIFFS = 3;

export function BaselineTimeline({ scenario }: { scenario: Scenario }) {
  const baseline = useMcStore((s) => s.baseline);
  const baseRun = useMcStore((s) => s.baseRun);
  const error = useMcStore((s) => s.baseRunError);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  if (!baseline) return null;
  const run = baseRun && baseRun.scenario === baseline ? baseRun.run : null;
  const trace = run?.trace;
  if (trace && run.recoveryIndex) primeRecoveryIndex(trace, run.recoveryIndex);
  const diffs = scenarioDiff(baseline, scenario);
  const named = diffs
    .slice(0, NAMED_DIFFS)
    .map((d) => `${inSentence(d.label)} ${d.from} → ${d.to}${d.unit ? ` ${d.unit}` : ""}`)
    .join(", ");
  const more = diffs.length > NAMED_DIFFS ? ` and ${diffs.length - NAMED_DIFFS} more` : "";
  return (
    <section
      className="timeline-baseline-part"
      aria-labelledby="timeline-baseline-h"
      data-testid="timeline-baseline"
    >
      <h3 id="timeline-baseline-h">The pinned baseline</h3>
      <p className="muted small" data-testid="timeline-baseline-words">
        {diffs.length === 0 ? "The same scenario as above. " : `Baseline → this: ${named}${more}. `}
        {baselineAxisWords(baseline, scenario)}
      </p>
      {error ? (
        <p className="error-text">The baseline&apos;s run failed: {error}</p>
      ) : run && trace ? (
        <ErrorBoundary what="The baseline's timeline" level="panel" resetKey={trace}>
          <Timeline
            baseline
            scenario={baseline}
            trace={trace}
            canvasRef={canvasRef}
            horizon={derived(scenario).horizonSeconds}
          />
        </ErrorBoundary>
      ) : (
        <p className="muted placeholder">Simulating the baseline…</p>
      )}
    </section>
  );
}
