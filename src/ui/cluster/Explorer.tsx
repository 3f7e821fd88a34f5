/**
 * The explorer's views below the knobs and headline results: presets, replica timelines,
 * goodput over time with the detailed metrics, the failure log, what-if sweeps, and exports.
 * Each view carries a few lines that say how to read it.
 */

import { useEffect, useLayoutEffect, useRef } from "react";
import { sweepCsv } from "../../export/csv.ts";
import { downloadBlob, downloadText } from "../../export/download.ts";
import { canvasToPng, svgToPng } from "../../export/png.ts";
import { runFailuresCsv } from "../../sim/failures/replayLog.ts";
import { selectedPolicies } from "../../sim/policies/index.ts";
import { primeRecoveryIndex } from "../../sim/recovery/recoveryIndex.ts";
import { axisInfo } from "../../sim/sweep/index.ts";
import type { MonteCarloResult, RunResult } from "../../sim/types.ts";
import { explorerStore, startWindowSync, useExplorerStore } from "../../state/explorerStore.ts";
import { noteRunCommitted } from "../../state/pageWork.ts";
import { useAppStore } from "../../state/store.ts";
import { ErrorBoundary } from "../boundary/ErrorBoundary.tsx";
import { Panel } from "../boundary/Panel.tsx";
import { failureLogLostWords, lossExplainerFor } from "../scenarioWords.ts";
import { everyStrategyWords, strategiesWords, strategyList } from "../strategyWords.ts";
import { Legend } from "../timeline/Legend.tsx";
import { Timeline } from "../timeline/Timeline.tsx";
import { useShownRun } from "../useShownRun.ts";
import { BaselineTimeline } from "./BaselineTimeline.tsx";
import { FailureLog } from "./FailureLog.tsx";
import { GoodputChart } from "./GoodputChart.tsx";
import { MetricsPanel } from "./MetricsPanel.tsx";
import { PerfettoExport } from "./PerfettoExport.tsx";
import { Presets } from "./Presets.tsx";
import { Sweeps } from "./Sweeps.tsx";
import { Tornado } from "./Tornado.tsx";
import "./explorer.css";

/** Why a policy loses more than its stalls, or that it does not: computed from the run on screen (when it applies). */
function LossExplainer({ run }: { run: RunResult }) {
  const words = lossExplainerFor(run);
  if (!words) return null;
  const { question, answer } = words;
  return (
    <p className="teach" data-testid="loss-explainer">
      <strong>{question}</strong> {answer}
    </p>
  );
}

/**
 * What the timeline's lanes are, for the strategies on screen: each one's own sentence (its
 * module's blurb), then how the lanes draw them, by the shape of their recordings.
 */
function TimelineTeach({ run }: { run: RunResult | null }) {
  const policies = run ? selectedPolicies(run.scenario) : [];
  const trace = run?.trace;
  const wholeJob = trace ? trace.policies.some((k) => trace.recordings[k]?.kind === "wholeJob") : false;
  const replicas = trace ? trace.policies.some((k) => trace.recordings[k]?.kind === "replicas") : false;
  return (
    <p className="teach" data-testid="timeline-teach">
      {policies.length > 1
        ? `Each strategy has its own lanes, top to bottom in the order chosen, and all meet the same failures (▼). `
        : "The failures are marked ▼. "}
      {policies.map((p) => (
        <span key={p.key}>
          <strong>{p.label}</strong>: {p.blurb}{" "}
        </span>
      ))}
      {wholeJob && "A whole-job strategy is one lane: one unit, so any failure stops all of it. "}
      {replicas &&
        "A replica-level strategy has one lane per replica, a complete copy of the model sharded over its own hosts: only the failed replica goes down, the others keep training and wait only while the failure is detected and while the replica rejoins; a thin job lane shows its job restarts and checkpoint writes, and a bracket joins the replicas one rack failure struck. "}
      {(trace?.slow?.count ?? 0) > 0 &&
        "Slow hosts stay alive but run slower, and every step waits for the slowest: the Slow hosts track counts them at each moment (✕: an eviction), and a replica's lane is shaded while one of its hosts is slow. "}
      When a pool of spare hosts is limited, a chart below counts each strategy's. Scroll to zoom (down to
      seconds), drag to pan, hover for details; open the trace in ui.perfetto.dev.
    </p>
  );
}

function panelBackground(): string {
  return getComputedStyle(document.documentElement).getPropertyValue("--panel").trim() || "#fff";
}

function fileStem(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "scenario"
  );
}

export function Explorer() {
  const run = useShownRun();
  const mc = useAppStore((s) => s.mc);
  const runError = useAppStore((s) => s.runError);
  const scenarioPolicies = useAppStore((s) => s.scenario.policies);
  // The words name the strategies drawn: the shown run's, or the scenario's before it is drawn.
  const policies = run?.scenario.policies ?? scenarioPolicies;
  const timelineCanvas = useRef<HTMLCanvasElement | null>(null);
  const goodputSvg = useRef<SVGSVGElement | null>(null);
  const sweepSvg = useRef<SVGSVGElement | null>(null);

  useEffect(() => startWindowSync(), []);
  // User Timing for bench:cluster: names the task that commits a newly drawn run to the page. The
  // first such commit also lets the work a link starts on open begin (linkRun.ts).
  useLayoutEffect(() => {
    if (!run) return;
    performance.mark("run-commit");
    noteRunCommitted();
  }, [run]);

  const stem = fileStem(run?.scenario.name ?? "scenario");
  const trace = run?.trace;
  // The worker sent the trace's recovery lookups with it: the failure log and the timeline's hover
  // (rendered below) read them, instead of building them in this render (~40–130 ms for a run
  // with 150,000 job restarts). Setting them again on a later render changes nothing.
  if (trace && run?.recoveryIndex) primeRecoveryIndex(trace, run.recoveryIndex);

  return (
    <div className="explorer">
      <Panel what="The presets" aria-labelledby="presets-h" data-control="presets">
        <h2 id="presets-h">Presets: scenarios from published figures</h2>
        <Presets />
      </Panel>

      <Panel what="The timeline panel" aria-labelledby="timeline-h">
        <div className="panel-head">
          <h2 id="timeline-h">
            {policies.length === 1
              ? `Timeline: ${strategyList(policies)}`
              : `Timeline: the same failures, ${strategiesWords(policies.length)}`}
          </h2>
          <div className="panel-actions">
            <PerfettoExport run={run} stem={stem} />
            <button
              type="button"
              disabled={!trace}
              data-testid="failures-csv"
              title="This run's failures as a log (time in seconds, host, cause): a replay of it gives these numbers"
              onClick={() => {
                if (run && trace)
                  downloadText(
                    runFailuresCsv(run.scenario, trace.failures),
                    `${stem}-failures.csv`,
                    "text/csv",
                  );
              }}
            >
              Failures (CSV)
            </button>
            <button
              type="button"
              disabled={!trace}
              onClick={async () => {
                if (timelineCanvas.current)
                  downloadBlob(
                    await canvasToPng(timelineCanvas.current, panelBackground()),
                    `${stem}-timeline.png`,
                  );
              }}
            >
              Timeline PNG
            </button>
          </div>
        </div>
        <TimelineTeach run={run} />
        {runError && <p className="error-text">The simulation failed: {runError}</p>}
        {run && trace ? (
          <ErrorBoundary what="The timeline" level="panel" resetKey={trace}>
            <Timeline scenario={run.scenario} trace={trace} canvasRef={timelineCanvas} />
          </ErrorBoundary>
        ) : (
          <p className="muted placeholder">Simulating…</p>
        )}
        {run ? <BaselineTimeline scenario={run.scenario} /> : null}
        <Legend trace={trace} />
      </Panel>

      {run && (
        <div className="explorer-grid">
          <Panel what="The useful-training chart" aria-labelledby="goodput-h">
            <div className="panel-head">
              <h2 id="goodput-h">Useful training over time</h2>
              <div className="panel-actions">
                <button
                  type="button"
                  onClick={async () => {
                    if (goodputSvg.current)
                      downloadBlob(
                        await svgToPng(goodputSvg.current, panelBackground()),
                        `${stem}-goodput.png`,
                      );
                  }}
                >
                  Chart PNG
                </button>
              </div>
            </div>
            <GoodputChart run={run} svgRef={goodputSvg} />
            <LossExplainer run={run} />
          </Panel>
          <Panel what="The details table" aria-labelledby="metrics-h">
            <h2 id="metrics-h">Details: {everyStrategyWords(policies.length)} on this trace</h2>
            <MetricsPanel run={run} mc={mc} />
          </Panel>
        </div>
      )}

      {run && trace && (
        <Panel what="The failure log" aria-labelledby="log-h">
          <h2 id="log-h">Failure log</h2>
          <p className="teach">
            Every failure of this run
            {trace.slow
              ? ", and each slow episode (a host alive but slow, its own row) and each eviction of a slow host (a failure found at once), to list or hide by kind"
              : ""}
            . Its FT-HSDP stall is the new time it made every replica wait; the sync stall is the new time the
            whole job stopped, and {failureLogLostWords(run.scenario)}. The bars show each failure's recovery
            phase by phase (detect, wait for a spare host, restart, catch-up, rejoin),{" "}
            {everyStrategyWords(policies.length)} on one scale per row; hover for the seconds. Click a time to
            see that failure on the timeline.
          </p>
          <FailureLog trace={trace} scenario={run.scenario} />
        </Panel>
      )}

      <Panel what="The tornado" aria-labelledby="tornado-h">
        <div className="panel-head">
          <h2 id="tornado-h">Which assumption matters most?</h2>
        </div>
        <p className="teach">
          Every input here is uncertain. The tornado moves each knob that applies to this scenario down and up
          (an option to each other choice) and shows how each strategy's ETTR changes, largest first, with the
          change in one strategy's lead over another.
        </p>
        <Tornado />
      </Panel>

      <Panel what="The sweeps" aria-labelledby="sweeps-h">
        <div className="panel-head">
          <h2 id="sweeps-h">What if? Sweeps</h2>
          <SweepExports svgRef={sweepSvg} />
        </div>
        <p className="teach">
          ETTR of each selected strategy as one thing changes: the cluster's size, how often it fails, how
          many replicas it is split into, or any other knob. Lines are Monte Carlo means, bands the 5th–95th
          percentiles over seeds. Click a point to load that scenario.
        </p>
        <Sweeps svgRef={sweepSvg} />
      </Panel>
    </div>
  );
}

function SweepExports({ svgRef }: { svgRef: React.RefObject<SVGSVGElement | null> }) {
  const sweep = useExplorerStore((s) => s.sweep);
  const rows = sweep.results.filter((r): r is typeof r & { mc: MonteCarloResult } => r.mc !== null);
  return (
    <div className="panel-actions">
      <button
        type="button"
        disabled={rows.length === 0}
        onClick={() =>
          downloadText(
            sweepCsv(axisInfo(explorerStore.getState().sweep.resultAxis, rows[0]?.scenario), rows),
            `sweep-${sweep.resultAxis}.csv`,
            "text/csv",
          )
        }
      >
        Sweep CSV
      </button>
      <button
        type="button"
        disabled={rows.length === 0}
        onClick={async () => {
          if (svgRef.current)
            downloadBlob(await svgToPng(svgRef.current, panelBackground()), `sweep-${sweep.resultAxis}.png`);
        }}
      >
        Sweep PNG
      </button>
    </div>
  );
}
