/**
 * The Cluster view's "Failure log" panel (docs/model.md §5): open a fleet's failure log, fit the
 * model to it in a worker (progress, Cancel), read the figures in plain words and the charts,
 * and "Use this fit": the fitted failures and spares on the scenario on screen, as one edit that
 * Back undoes. The fit itself is not in the address; the scenario it gives is.
 */
import { useEffect, useRef, useState } from "react";
import { scenarioWithFit } from "../../sim/fit/applyFit.ts";
import type { TimeUnit } from "../../sim/fit/csvTime.ts";
import type { FitOutcome, FitPhase, FitRequest } from "../../sim/fit/fitFile.ts";
import { asHistoryEntry } from "../../state/address.ts";
import { FitCancelled, type RunningFit, startFit } from "../../state/fitClient.ts";
import { appStore, useAppStore } from "../../state/store.ts";
import { Panel } from "../boundary/Panel.tsx";
import { type AppliedFit, ettrsOf, FitApplied } from "./FitApplied.tsx";
import { FitCharts } from "./FitCharts.tsx";
import { loadReplay, ReplayVsModel } from "./FitReplay.tsx";
import { FitSummary } from "./FitSummary.tsx";
import { FAILURE_LOG_HEADING } from "./failureLogHeading.ts";
import { applyFitWords } from "./fitApplyWords.ts";
import "./failureLogImport.css";

const PHASE_WORDS: Record<FitPhase, string> = {
  reading: "Reading the file…",
  parsing: "Reading the events…",
  fitting: "Fitting the model…",
};

interface Options {
  hosts: string;
  days: string;
  label: string;
  unit: TimeUnit;
}

/** The options as the fit takes them; a blank field is left to the log. */
function requestOf(o: Options, name: string): FitRequest {
  const req: FitRequest = { unit: o.unit, name };
  if (o.hosts.trim() !== "") req.hosts = Number(o.hosts);
  if (o.days.trim() !== "") req.days = Number(o.days);
  if (o.label !== "") req.label = o.label;
  return req;
}

export function FailureLogImport() {
  const scenario = useAppStore((s) => s.scenario);
  const [file, setFile] = useState<File | null>(null);
  const [options, setOptions] = useState<Options>({ hosts: "", days: "", label: "", unit: "days" });
  const [phase, setPhase] = useState<FitPhase | null>(null);
  const [outcome, setOutcome] = useState<FitOutcome | null>(null);
  const [applyError, setApplyError] = useState<string | null>(null);
  const [applied, setApplied] = useState<AppliedFit | null>(null);
  const [replayError, setReplayError] = useState<string | null>(null);
  const running = useRef<RunningFit | null>(null);

  useEffect(() => {
    if (!file) return;
    const run = startFit(file, requestOf(options, file.name), setPhase);
    running.current = run;
    setOutcome(null);
    setApplyError(null);
    setReplayError(null);
    setPhase("reading");
    run.result
      .then(
        (o) => {
          if (running.current === run) setOutcome(o);
        },
        (e: unknown) => {
          if (running.current !== run) return;
          if (!(e instanceof FitCancelled))
            setOutcome({ ok: false, message: `the fit failed: ${(e as Error).message}` });
        },
      )
      .finally(() => {
        if (running.current === run) {
          running.current = null;
          setPhase(null);
        }
      });
    return () => run.cancel();
  }, [file, options]);

  const cancel = () => {
    running.current?.cancel();
    running.current = null;
    setPhase(null);
    setFile(null);
  };

  const set = (k: keyof Options) => (e: { target: { value: string } }) =>
    setOptions({ ...options, [k]: e.target.value });
  const fit = outcome?.ok ? outcome : null;

  const applyFit = () => {
    if (!fit) return;
    try {
      const next = scenarioWithFit(scenario, fit.scenario);
      const before = ettrsOf(appStore.getState().run, scenario);
      asHistoryEntry(() => appStore.getState().setScenario(next));
      setApplied({ scenario: next, before });
      setApplyError(null);
    } catch (e) {
      setApplyError((e as Error).message);
    }
  };

  return (
    <Panel
      what="The failure log panel"
      className="panel failure-log-import"
      aria-label="Failure log import"
      data-control="fit-log"
    >
      <h2 id={FAILURE_LOG_HEADING}>Failure log: fit the model to your fleet</h2>
      <p className="fit-intro">
        Bring your own fleet's failure log and see what it says: how often hosts fail, whether failures come
        in bursts, which causes dominate, how long repairs take, whether a few hosts fail far more than the
        rest. A JSON event list as in the InfiniteHBD trace (<code>node_id, event_time</code> in days,{" "}
        <code>fault_start</code>/<code>fault_end</code>), a CSV with the header <code>time,host,cause</code>{" "}
        (and optionally <code>end</code>), or a counts table{" "}
        <code>{"{gpus, gpusPerHost, days, causes}"}</code>. The file stays in your browser.
      </p>
      <div className="fit-form">
        <label className="fit-file">
          Open a log
          <input
            type="file"
            accept=".json,.csv,.txt,application/json,text/csv"
            data-testid="fit-file-input"
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
        </label>
        <label>
          Fleet hosts
          <input
            type="number"
            min={1}
            step={1}
            placeholder="hosts in the log"
            value={options.hosts}
            onChange={set("hosts")}
            data-testid="fit-hosts"
          />
        </label>
        <label>
          Window (days)
          <input
            type="number"
            min={0}
            step="any"
            placeholder="first to last"
            value={options.days}
            onChange={set("days")}
            data-testid="fit-days"
          />
        </label>
        <label>
          Causes by
          <select value={options.label} onChange={set("label")}>
            <option value="">the log's default</option>
            <option value="Level">Level</option>
            <option value="Class">Class</option>
            <option value="Desc">Desc</option>
          </select>
        </label>
        <label>
          CSV times in
          <select value={options.unit} onChange={set("unit")}>
            <option value="days">days</option>
            <option value="hours">hours</option>
            <option value="seconds">seconds (a run's Failures CSV)</option>
          </select>
        </label>
      </div>
      {phase && (
        <p className="fit-progress" role="status">
          <progress aria-label="Fitting the log" /> {PHASE_WORDS[phase]}{" "}
          <button type="button" onClick={cancel}>
            Cancel
          </button>
        </p>
      )}
      {outcome && !outcome.ok && (
        <p className="fit-error" role="alert" data-testid="fit-error">
          This log was not fitted: {outcome.message}.
        </p>
      )}
      {fit && file && (
        <>
          <FitSummary fit={fit.fit} notes={[...fit.fit.notes, ...fit.notes]} file={file.name} />
          <FitCharts fit={fit.fit} />
          <div className="fit-use">
            <p data-testid="fit-use-words">{applyFitWords(fit.scenario, scenario, fit.fit)}</p>
            <button type="button" onClick={applyFit} data-testid="fit-use">
              Use this fit
            </button>
            {applied && <FitApplied applied={applied} />}
            {applyError && (
              <p className="fit-error" role="alert">
                The scenario refused the fit: {applyError}
              </p>
            )}
          </div>
          <div className="fit-use">
            <p>
              Replay the log: strike this log's own failures, at their times and on their hosts, on the log's
              fleet ({fit.fit.hosts.toLocaleString("en-US")} hosts) through every selected strategy, and set
              the result beside the fitted model's runs on the same fleet.
            </p>
            <button
              type="button"
              onClick={() => setReplayError(loadReplay(fit.scenario, fit.replay))}
              data-testid="fit-replay-button"
            >
              Replay the log
            </button>
            {replayError && (
              <p className="fit-error" role="alert" data-testid="fit-replay-error">
                The log was not replayed: {replayError}.
              </p>
            )}
          </div>
        </>
      )}
      <ReplayVsModel />
    </Panel>
  );
}
