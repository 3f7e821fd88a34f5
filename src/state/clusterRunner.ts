/**
 * Keeps the store's results in step with its scenario: on every change, the Monte Carlo streams
 * at once on the worker pool (mcPool.ts: a small first chunk, so a band is on screen within tens
 * of milliseconds, that tightens until the stated precision or the cap), and one recorded run
 * (debounced) in the simulation worker beside it. A pinned baseline's Monte Carlo runs on the
 * same pool after the scenario's own chunks. A newer change supersedes an older one; its late
 * answers are dropped. (The address bar follows the store through address.ts.)
 */

import type { McStream } from "../sim/monteCarlo/mcStream.ts";
import { derived } from "../sim/scenario/derived.ts";
import type { Scenario } from "../sim/scenario/index.ts";
import type { ClosedForms } from "../sim/types.ts";
import { holdForPage, type McJob, streamMonteCarlo } from "./mcPool.ts";
import { mcStore } from "./mcStore.ts";
import { whenPageIdle } from "./pageWork.ts";
import { simWorker } from "./simClient.ts";
import { type AppState, appStore } from "./store.ts";
import { reportRestart } from "./workerHealth.ts";
import { DEFAULT_SILENCE_MS } from "./workerSupervisor.ts";

const onRestart = reportRestart("simulation");

const DEBOUNCE_MS = 80;
/**
 * Bands on screen change at most this often while a Monte Carlo streams (the first and the last
 * are shown at once): each shown band sorts the runs so far for its p5/p95 and re-renders the cards.
 */
const BAND_EVERY_MS = 100;
/** The full summary of the runs so far (every metric, mcSoFar) is rebuilt at most this often. */
const SO_FAR_EVERY_MS = 500;

/**
 * A recorded run is one synchronous computation with no progress to report, and its cost grows
 * with the failures it draws (the largest scenario the validator accepts, a million expected
 * failures, took 4.6 s recorded at load 18 on two cores: bench/budget-results.json). Its silence
 * limit grows with them, 30 µs a failure on top of the default, so a slow machine is not taken
 * for a dead worker; a hung worker is still found, late.
 */
export function recordedRunSilenceMs(s: Scenario): number {
  return DEFAULT_SILENCE_MS + Math.ceil(derived(s).expectedFailures * 0.03);
}

let request = 0;

/**
 * The page holds the Monte Carlo's pool (mcPool.ts says why) from an edit until the newest
 * recorded run is drawn: the run then has a core, and its drawing another.
 */
let pageHold: (() => void) | null = null;
function holdPool(): void {
  pageHold ??= holdForPage();
}
function releasePool(): void {
  pageHold?.();
  pageHold = null;
}

/**
 * The longest the pool waits for the page to be done drawing a run (pageWork.ts) before it takes
 * every core again: a view that never says it is done does not stall the Monte Carlo.
 */
const DRAW_WAIT_MS = 3000;

async function recordedRun(scenario: AppState["scenario"]): Promise<void> {
  const mine = ++request;
  holdPool();
  appStore.setState({ running: true, runError: null });
  try {
    const run = await simWorker().call((api) => api.clusterRun(scenario, true), {
      onRestart,
      silenceMs: recordedRunSilenceMs(scenario),
    });
    if (mine !== request) return;
    // User Timing for bench:cluster: names the task that takes a recorded run in (the views draw
    // it in later tasks: useShownRun.ts).
    performance.mark("run-arrived");
    appStore.setState({ run, running: false });
    whenPageIdle(() => {
      if (mine === request) releasePool();
    }, DRAW_WAIT_MS);
  } catch (e) {
    if (mine === request) {
      releasePool();
      appStore.setState({ running: false, runError: (e as Error).message ?? String(e) });
    }
  }
}

let baseRequest = 0;

/**
 * The pinned baseline's recorded run, for its timeline under the one on screen: asked for once per
 * baseline (the settings change its Monte Carlo, not this run), in the same worker, after the
 * scenario's own run when both are asked at once (the worker answers in order). A newer baseline,
 * or none, drops a late answer.
 */
async function recordedBaseRun(baseline: Scenario | null): Promise<void> {
  const mine = ++baseRequest;
  mcStore.setState({ baseRun: null, baseRunError: null });
  if (!baseline) return;
  try {
    const run = await simWorker().call((api) => api.clusterRun(baseline, true), {
      onRestart,
      silenceMs: recordedRunSilenceMs(baseline),
    });
    if (mine === baseRequest && mcStore.getState().baseline === baseline)
      mcStore.setState({ baseRun: { scenario: baseline, run } });
  } catch (e) {
    if (mine === baseRequest) mcStore.setState({ baseRunError: (e as Error).message ?? String(e) });
  }
}

/** Shows a stream's snapshots at most every BAND_EVERY_MS, the first and the last at once. */
function throttled(show: (stream: McStream, final: boolean) => void): (stream: McStream) => void {
  let last = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let shown = 0;
  return (stream) => {
    clearTimeout(timer);
    const now = performance.now();
    if (stream.stop || shown === 0 || now - last >= BAND_EVERY_MS) {
      last = now;
      shown++;
      show(stream, stream.stop !== null);
    } else {
      timer = setTimeout(
        () => {
          last = performance.now();
          show(stream, stream.stop !== null);
        },
        BAND_EVERY_MS - (now - last),
      );
    }
  };
}

/**
 * A scenario's closed forms, for its Monte Carlo's full result: they need every selected policy's
 * code (policyForms.ts), which loads on demand (with the Cluster view and the workers), never with
 * the page's first-load script. The bands (snapshots) need none, so they never wait for it.
 */
function closedFormsLater(s: Scenario): Promise<ClosedForms> {
  return import("../sim/policies/policyForms.ts").then(({ closedFormsOf }) => closedFormsOf(s));
}

let currentJob: McJob | null = null;
let baseJob: McJob | null = null;

/**
 * The stream a new one of this scenario goes on from (its runs are kept: new settings never throw
 * runs away), or undefined for another scenario.
 */
function resumable(job: McJob | null, scenario: Scenario): McStream | undefined {
  return job && job.stream.scenario === scenario ? job.stream : undefined;
}

function startCurrent(scenario: Scenario): void {
  const from = resumable(currentJob, scenario);
  currentJob?.cancel();
  const { precision, cap } = mcStore.getState();
  appStore.setState({ mc: null, mcProgress: { done: 0, total: cap }, mcSoFar: null });
  mcStore.setState({ current: null, currentBadput: null });
  let soFarAt = Number.NEGATIVE_INFINITY;
  // Computed once per job, on the first full result; every result waits on this one promise, so
  // they apply in the order they were asked for (the final one last).
  let forms: Promise<ClosedForms> | null = null;
  const whenForms = (apply: (cf: ClosedForms) => void) => {
    forms ??= closedFormsLater(scenario);
    forms.then(
      (cf) => {
        if (currentJob === job) apply(cf);
      },
      (e: unknown) => {
        if (currentJob === job) appStore.setState({ mcProgress: null, mcSoFar: null, runError: String(e) });
      },
    );
  };
  // User Timing marks for bench/band.ts: where an edit's first band spends its time.
  performance.mark("mc-start");
  const onMerged = throttled((stream, final) => {
    if (currentJob !== job) return;
    if (!mcStore.getState().current) performance.mark("mc-first-chunk");
    mcStore.setState({ current: { scenario, snapshot: stream.snapshot() } });
    if (final) {
      whenForms((cf) => {
        // With the result, its per-run badput shares: the comparison pairs them by seed.
        mcStore.setState({ currentBadput: { scenario, samples: stream.badputSamples() } });
        appStore.setState({ mc: stream.result(cf), mcProgress: null, mcSoFar: null });
      });
      return;
    }
    appStore.setState({ mcProgress: { done: stream.runs, total: cap } });
    const now = performance.now();
    if (now - soFarAt >= SO_FAR_EVERY_MS) {
      soFarAt = now;
      whenForms((cf) => {
        // The stream may have stopped meanwhile: the final result (asked for after this) says so.
        if (!stream.stop) appStore.setState({ mcSoFar: stream.result(cf) });
      });
    }
  });
  const job = streamMonteCarlo(
    scenario,
    { precision, cap },
    0,
    {
      onMerged,
      onError: (message) => {
        if (currentJob === job) appStore.setState({ mcProgress: null, mcSoFar: null, runError: message });
      },
    },
    from,
  );
  currentJob = job;
  // Kept runs are a band at once (and the final one when they meet the new settings).
  if (job.stream.runs > 0) onMerged(job.stream);
}

function startBase(): void {
  const { baseline, precision, cap } = mcStore.getState();
  const from = baseline ? resumable(baseJob, baseline) : undefined;
  baseJob?.cancel();
  baseJob = null;
  mcStore.setState({ base: null, baseResult: null, baseBadput: null, baseError: null });
  if (!baseline) return;
  const onMerged = throttled((stream, final) => {
    if (baseJob !== job) return;
    mcStore.setState({ base: { scenario: baseline, snapshot: stream.snapshot() } });
    // Once stopped, the full summary too, and the per-run badput shares: the comparison's badput
    // side by side reads both (its differences are paired by seed).
    if (final)
      closedFormsLater(baseline).then(
        (cf) => {
          if (baseJob === job)
            mcStore.setState({
              baseResult: stream.result(cf),
              baseBadput: { scenario: baseline, samples: stream.badputSamples() },
            });
        },
        (e: unknown) => {
          if (baseJob === job) mcStore.setState({ baseError: String(e) });
        },
      );
  });
  const job = streamMonteCarlo(
    baseline,
    { precision, cap },
    1,
    {
      onMerged,
      onError: (message) => {
        if (baseJob === job) mcStore.setState({ baseError: message });
      },
    },
    from,
  );
  baseJob = job;
  if (job.stream.runs > 0) onMerged(job.stream);
}

/** Start following the store. Returns a function that stops it. */
export function startClusterRunner(): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  // The recorded run first: the pool is held before the Monte Carlo asks for its first chunks.
  void recordedRun(appStore.getState().scenario);
  startCurrent(appStore.getState().scenario);
  startBase();
  void recordedBaseRun(mcStore.getState().baseline);
  const unsubscribe = appStore.subscribe((s, prev) => {
    if (s.scenario !== prev.scenario) {
      // The band at once (the pool drops the older stream's chunks; a small first chunk goes out
      // though the pool is held from now until the recorded run is drawn); the recorded run, with
      // its trace, once the edits pause.
      holdPool();
      startCurrent(s.scenario);
      clearTimeout(timer);
      timer = setTimeout(() => void recordedRun(s.scenario), DEBOUNCE_MS);
    }
  });
  const unsubscribeMc = mcStore.subscribe((s, prev) => {
    const settings = s.precision !== prev.precision || s.cap !== prev.cap;
    if (settings) startCurrent(appStore.getState().scenario);
    if (settings || s.baseline !== prev.baseline) startBase();
    if (s.baseline !== prev.baseline) void recordedBaseRun(s.baseline);
  });
  return () => {
    clearTimeout(timer);
    releasePool();
    unsubscribe();
    unsubscribeMc();
    currentJob?.cancel();
    baseJob?.cancel();
    baseRequest++;
  };
}
