/**
 * Chapter 1: at 98K GPUs one host fails every ~18 min, and a synchronous job stops for each.
 * The figure replays six hours of the engine's own run: every host as a cell, the failed one
 * lit, the whole job greyed while it recovers.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { wholeJobRecording } from "../../../sim/recordings.ts";
import { DEFAULT_SCENARIO, derived } from "../../../sim/scenario/index.ts";
import { type RunResult, SyncState } from "../../../sim/types.ts";
import { storyRun } from "../../../state/storyData.ts";
import { count, duration, pct } from "../../format.ts";
import { Term } from "../../glossary/Term.tsx";
import { Figure, Prose, Sources, SRC, WhenLoaded } from "../parts.tsx";
import { usePromise } from "../usePromise.ts";

const HOURS = 6;
export const ONE_FAILURE_SCENARIO = { training: { days: HOURS / 24 } } as const;
/** Simulated seconds per real second of the animation: six hours in about 36 s. */
const SPEED = 600;
const CELL = 3;

interface Frame {
  failures: number;
  lastHost: number;
  lastTime: number;
  stopped: boolean;
  stoppedSeconds: number;
}

/** Where the run stands at time t: failures so far, the last one, and whether the job is stopped. */
function frameAt(run: RunResult, t: number): Frame {
  const recorded = run.trace;
  // This chapter follows the synchronous job: it reads that recording by key.
  const syncRec = recorded && wholeJobRecording(recorded, "synchronous");
  if (!recorded || !syncRec)
    return { failures: 0, lastHost: -1, lastTime: 0, stopped: false, stoppedSeconds: 0 };
  const tr = { failures: recorded.failures, sync: syncRec.intervals };
  let failures = 0;
  while (failures < tr.failures.time.length && (tr.failures.time[failures] ?? Infinity) <= t) failures++;
  let stopped = false;
  let stoppedSeconds = 0;
  for (let i = 0; i < tr.sync.state.length; i++) {
    if (tr.sync.state[i] !== SyncState.recovering) continue;
    const a = tr.sync.start[i] ?? 0;
    const b = tr.sync.end[i] ?? 0;
    if (a > t) break;
    stoppedSeconds += Math.min(b, t) - a;
    if (t < b) stopped = true;
  }
  return {
    failures,
    lastHost: failures > 0 ? (tr.failures.host[failures - 1] ?? -1) : -1,
    lastTime: failures > 0 ? (tr.failures.time[failures - 1] ?? 0) : 0,
    stopped,
    stoppedSeconds,
  };
}

function cssVar(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || "#888";
}

function HostGrid({ run, hosts, replicas }: { run: RunResult; hosts: number; replicas: number }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const reduced = useMemo(() => matchMedia("(prefers-reduced-motion: reduce)").matches, []);
  const firstFailure = run.trace?.failures.time[0] ?? 0;
  const [t, setT] = useState(reduced ? firstFailure + 30 : 0);
  const [playing, setPlaying] = useState(!reduced);
  const horizon = HOURS * 3600;
  const perReplica = hosts / replicas;
  const cols = Math.min(6, replicas);
  const rows = Math.ceil(replicas / cols);
  const side = Math.ceil(Math.sqrt(perReplica));
  const blockPx = side * CELL + 6;
  const width = cols * blockPx;
  const height = rows * blockPx;
  const f = frameAt(run, t);

  useEffect(() => {
    if (!playing) return;
    let raf = 0;
    let last = performance.now();
    const tick = (now: number) => {
      const dt = Math.min(0.1, (now - last) / 1000);
      last = now;
      setT((x) => (x + dt * SPEED) % horizon);
      raf = requestAnimationFrame(tick);
    };
    raf = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(raf);
  }, [playing, horizon]);

  useEffect(() => {
    const ctx = canvas.current?.getContext("2d");
    if (!ctx) return;
    ctx.clearRect(0, 0, width, height);
    ctx.fillStyle = f.stopped ? cssVar("--st-rolledback") : cssVar("--st-training");
    for (let r = 0; r < replicas; r++) {
      const ox = (r % cols) * blockPx;
      const oy = Math.floor(r / cols) * blockPx;
      ctx.fillRect(ox, oy, side * CELL, Math.ceil(perReplica / side) * CELL);
    }
    // The failed host stays lit for ten minutes (one synchronous recovery) after it fails.
    if (f.lastHost >= 0 && t - f.lastTime < 600) {
      const r = Math.floor(f.lastHost / perReplica);
      const k = f.lastHost % perReplica;
      const x = (r % cols) * blockPx + (k % side) * CELL;
      const y = Math.floor(r / cols) * blockPx + Math.floor(k / side) * CELL;
      ctx.fillStyle = cssVar("--danger");
      ctx.fillRect(x - 6, y - 6, CELL + 12, CELL + 12);
    }
  }, [f.stopped, f.lastHost, f.lastTime, t, width, height, replicas, cols, blockPx, side, perReplica]);

  return (
    <div className="story-grid">
      <canvas
        ref={canvas}
        width={width}
        height={height}
        className="story-canvas"
        role="img"
        aria-label={`${count(hosts)} hosts in ${replicas} replicas; ${f.failures} failures so far; the synchronous job is ${f.stopped ? "stopped" : "training"}.`}
      />
      <div className="story-readout" aria-live="off">
        <ul className="story-grid-legend" aria-label="Legend">
          <li>
            <span className="lg lg-training" aria-hidden="true" /> training
          </li>
          <li>
            <span className="lg lg-stopped" aria-hidden="true" /> stopped: every host waits
          </li>
          <li>
            <span className="lg lg-failed" aria-hidden="true" /> the host that failed (lit for 10 min)
          </li>
          <li>one block: {count(perReplica)} hosts (a replica)</li>
        </ul>
        <span className="mono">
          t = {(t / 3600).toFixed(2)} h of {HOURS} h
        </span>
        <span>
          Failures so far: <strong className="mono">{f.failures}</strong>
        </span>
        <span className={f.stopped ? "story-state stopped" : "story-state"}>
          Synchronous job: <strong>{f.stopped ? "stopped (detect + restart)" : "training"}</strong>
        </span>
        <span>
          Stopped so far: <strong className="mono">{t > 0 ? pct(f.stoppedSeconds / t) : "—"}</strong> of the
          time
        </span>
        <button type="button" onClick={() => setPlaying((p) => !p)} aria-pressed={!playing}>
          {playing ? "Pause" : "Play"}
        </button>
      </div>
    </div>
  );
}

export function OneFailureChapter() {
  const s = DEFAULT_SCENARIO;
  const { hosts, mtbfSeconds } = derived(s);
  const loaded = usePromise("one-failure", () => storyRun(ONE_FAILURE_SCENARIO, true));
  return (
    <>
      <Prose>
        <p>
          A host is a machine with {s.cluster.gpusPerHost} GPUs. Each host fails rarely:{" "}
          {(s.failures.perHostDay * 1000).toFixed(2)} times per 1,000 days (per host, not per GPU). But a job
          on {count(s.cluster.gpus)} GPUs runs on {count(hosts)} hosts at once, and their failures add up: the
          job's <Term id="mtbf" /> is 1 / (hosts · rate) ={" "}
          <strong data-testid="story-mtbf">{duration(mtbfSeconds)}</strong>.
        </p>
        <p>
          In <em>synchronous</em> training every GPU waits for every other at each step, so one dead host
          stops all of them: the job notices ({s.detection.failStopSeconds} s), restarts and reloads (
          {s.sync.restartSeconds} s), and only then trains again. Watch six hours of it below, simulated by
          the same engine as the rest of the explorer.
        </p>
      </Prose>
      <Figure label="Six hours of a 98K-GPU synchronous job" volatile>
        <WhenLoaded loaded={loaded}>
          {(run) => <HostGrid run={run} hosts={hosts} replicas={s.cluster.replicas} />}
        </WhenLoaded>
      </Figure>
      <Sources items={[SRC.ftHsdpReported, SRC.kokolis, SRC.ftHsdp]} />
    </>
  );
}
