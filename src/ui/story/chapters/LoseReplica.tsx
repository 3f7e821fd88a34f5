/**
 * Chapter 3: FT-HSDP takes one replica offline instead of the job. The first failure of the
 * paper's fixed-arrival run is replayed phase by phase from the engine's trace (detect · restart ·
 * catch-up · rejoin), beside the synchronous job's recovery, with a waterfall of their seconds.
 */
import { useCallback, useRef, useState } from "react";
import { presetById } from "../../../sim/presets.ts";
import { replicaRecording, wholeJobRecording } from "../../../sim/recordings.ts";
import { FtPhase, SyncState } from "../../../sim/types.ts";
import { type StoryRun, storyRun } from "../../../state/storyData.ts";
import { duration, pct } from "../../format.ts";
import { Term } from "../../glossary/Term.tsx";
import { useWidth } from "../../useWidth.ts";
import { Figure, Prose, Sources, SRC, WhenLoaded } from "../parts.tsx";
import { useChapterSteps, usePresenter } from "../presenter.ts";
import { usePromise } from "../usePromise.ts";

const HEADLINE_FIXED = presetById("headline-fixed")?.scenario ?? { failures: { arrivals: "fixed" } };

interface Phase {
  key: "detect" | "restart" | "catchUp" | "rejoin";
  label: string;
  start: number;
  end: number;
  /** What the other replicas do meanwhile. */
  others: string;
}

interface Replay {
  t0: number;
  replica: number;
  replicas: number;
  phases: Phase[];
  /** The synchronous job's recovery: detection until syncDetected, then its restart until syncEnd. */
  syncDetected: number;
  syncEnd: number;
}

const PHASE_INFO: Record<Phase["key"], { id: number; label: string; others: string }> = {
  detect: { id: FtPhase.detect, label: "Detect", others: "wait inside FTAR: a global stall" },
  restart: { id: FtPhase.restart, label: "Restart", others: "train on without it" },
  catchUp: { id: FtPhase.catchUp, label: "Catch-up", others: "train on (non-blocking)" },
  rejoin: { id: FtPhase.rejoin, label: "Rejoin", others: "wait while the ring re-forms: a global stall" },
};

/** The first failure's phases, read from the trace (a phase of 0 s is absent there: shown as 0 s). */
function replayOf(run: StoryRun): Replay | null {
  const recorded = run.trace;
  // This chapter is about the synchronous job against FT-HSDP: it reads their recordings by key.
  const ftRec = recorded && replicaRecording(recorded, "ftHsdp");
  const syncRec = recorded && wholeJobRecording(recorded, "synchronous");
  if (!recorded || !ftRec || !syncRec || recorded.failures.time.length === 0) return null;
  const tr = { failures: recorded.failures, ft: ftRec.intervals, sync: syncRec.intervals };
  const t0 = tr.failures.time[0] ?? 0;
  const replica = tr.failures.replica[0] ?? 0;
  const phases: Phase[] = [];
  let cursor = t0;
  for (const key of ["detect", "restart", "catchUp", "rejoin"] as const) {
    const info = PHASE_INFO[key];
    let row = -1;
    for (let i = 0; i < tr.ft.phase.length; i++) {
      if (tr.ft.replica[i] === replica && tr.ft.phase[i] === info.id && (tr.ft.start[i] ?? 0) >= t0) {
        row = i;
        break;
      }
    }
    const start = row >= 0 ? (tr.ft.start[row] ?? cursor) : cursor;
    const end = row >= 0 ? (tr.ft.end[row] ?? cursor) : cursor;
    phases.push({ key, label: info.label, others: info.others, start, end });
    cursor = end;
  }
  let syncEnd = t0;
  for (let i = 0; i < tr.sync.state.length; i++) {
    if (tr.sync.state[i] === SyncState.recovering && (tr.sync.start[i] ?? 0) >= t0) {
      syncEnd = tr.sync.end[i] ?? t0;
      break;
    }
  }
  const syncDetected = Math.min(syncEnd, t0 + (tr.failures.detectSeconds[0] ?? 0));
  return { t0, replica, replicas: run.scenario.cluster.replicas, phases, syncDetected, syncEnd };
}

/** Each phase's colour, the same in the lanes, the bars under them and the legend. */
const PHASE_CLASS: Record<Phase["key"], string> = {
  detect: "st-detect",
  restart: "st-down",
  catchUp: "st-catchup",
  rejoin: "st-rejoin",
};

/** What each colour means: one meaning each, for both policies. */
const LEGEND: { key: Phase["key"] | "training"; cls: string; text: string }[] = [
  { key: "training", cls: "st-training", text: "training" },
  { key: "detect", cls: PHASE_CLASS.detect, text: "detect: all wait for the failure to be noticed" },
  { key: "restart", cls: PHASE_CLASS.restart, text: "restart" },
  { key: "catchUp", cls: PHASE_CLASS.catchUp, text: "catch-up from a peer" },
  { key: "rejoin", cls: PHASE_CLASS.rejoin, text: "rejoin: all wait while the ring re-forms" },
];

function Legend() {
  return (
    <ul className="story-legend story-phase-legend" data-testid="replay-legend" aria-label="Colours">
      {LEGEND.map((l) => (
        <li key={l.key} data-phase={l.key}>
          <span className={`lg ${l.cls}`} aria-hidden="true" /> {l.text}
        </li>
      ))}
    </ul>
  );
}

/** A lane's height on screen, and on a projector (presenter mode). */
const SCREEN_LANE = 16;
const PRESENTER_LANE = 11;

function Lanes({
  r,
  step,
  cursorPhase,
  last,
  steps,
}: {
  r: Replay;
  step: number;
  /** The phase this step shows (null before the failure and after recovery). */
  cursorPhase: Phase | null;
  last: boolean;
  steps: number;
}) {
  const box = useRef<HTMLDivElement>(null);
  // Drawn at the container's own width, so the lane labels keep their size on a phone.
  const W = Math.min(768, useWidth(box, 720));
  // On a projector the lanes are thinner, so the figure and the waterfall under it fit 1280×720,
  // and the labels (18 px there) get room above their lanes.
  const presenting = usePresenter((s) => s.presenting);
  const LANE = presenting ? PRESENTER_LANE : SCREEN_LANE;
  const top = presenting ? 26 : 22;
  // The first replica's lane: below the synchronous lane and the replicas' label.
  const firstLane = top + LANE + (presenting ? 24 : LANE);
  const from = r.t0 - 120;
  const to = Math.max(r.syncEnd, r.phases[3]?.end ?? r.t0) + 120;
  const x = (t: number) => ((t - from) / (to - from)) * W;
  // Steps: before the failure, each phase that lasts, after.
  const cursor = step === 0 ? r.t0 : last ? to : (cursorPhase?.end ?? r.t0);
  const height = firstLane + r.replicas * LANE + 20;
  const stall = (p: Phase) => p.key === "detect" || p.key === "rejoin";
  return (
    <div ref={box}>
      <svg
        width={W}
        height={height}
        className="story-lanes"
        role="img"
        aria-label={`The synchronous job and ${r.replicas} FT-HSDP replicas around the first failure; step ${step + 1} of ${steps}.`}
      >
        <line className="story-cursor" x1={x(cursor)} x2={x(cursor)} y1={0} y2={height - 16} />
        <text x={0} y={top - 10} className="lane-label lane-label-halo">
          Synchronous job
        </text>
        <rect x={0} y={top - 6} width={W} height={LANE - 4} className="st-training" />
        {/* The job's detection and restart in the colours of FT-HSDP's detect and restart (the legend's). */}
        <rect
          x={x(r.t0)}
          y={top - 6}
          width={Math.max(0, x(Math.min(cursor, r.syncDetected)) - x(r.t0))}
          height={LANE - 4}
          className="st-detect"
        />
        <rect
          x={x(r.syncDetected)}
          y={top - 6}
          width={Math.max(0, x(Math.min(cursor, r.syncEnd)) - x(r.syncDetected))}
          height={LANE - 4}
          className="st-down"
        />
        <text x={0} y={presenting ? firstLane - 5 : top + LANE + 14} className="lane-label lane-label-halo">
          FT-HSDP: {r.replicas} replicas
        </text>
        {Array.from({ length: r.replicas }, (_, k) => {
          const y = firstLane + k * LANE;
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: replicas are identified by their index
            <g key={k}>
              <rect x={0} y={y} width={W} height={LANE - 4} className="st-training" />
              {r.phases.map((p) => {
                const shown = Math.min(cursor, p.end);
                if (shown <= p.start) return null;
                // The failed replica shows every phase; the others only the global stalls (detect,
                // rejoin), in the same colour: one colour, one phase, here and in the bars below.
                if (k !== r.replica && !stall(p)) return null;
                return (
                  <rect
                    key={p.key}
                    x={x(p.start)}
                    y={y}
                    width={x(shown) - x(p.start)}
                    height={LANE - 4}
                    className={PHASE_CLASS[p.key]}
                  />
                );
              })}
            </g>
          );
        })}
        <text x={x(r.t0)} y={height - 4} className="lane-label" textAnchor="middle">
          failure
        </text>
      </svg>
    </div>
  );
}

function Waterfall({ r }: { r: Replay }) {
  const sync = r.syncEnd - r.t0;
  const syncDetect = r.syncDetected - r.t0;
  const [detect, restart, catchUp, rejoin] = r.phases.map((p) => p.end - p.start);
  const scale = (s: number) => `${(100 * s) / Math.max(sync, 1)}%`;
  const rows = [
    {
      name: "Synchronous: stopped",
      parts: [
        { s: syncDetect, cls: PHASE_CLASS.detect, text: `detect ${duration(syncDetect)}` },
        { s: sync - syncDetect, cls: PHASE_CLASS.restart, text: `restart ${duration(sync - syncDetect)}` },
      ],
    },
    {
      name: "FT-HSDP: everyone stalled",
      parts: [
        { s: detect ?? 0, cls: PHASE_CLASS.detect, text: `detect ${duration(detect ?? 0)}` },
        { s: rejoin ?? 0, cls: PHASE_CLASS.rejoin, text: `rejoin ${duration(rejoin ?? 0)}` },
      ],
    },
    {
      name: `FT-HSDP: ${r.replicas - 1} of ${r.replicas} train`,
      parts: [
        { s: restart ?? 0, cls: PHASE_CLASS.restart, text: `restart ${duration(restart ?? 0)}` },
        { s: catchUp ?? 0, cls: PHASE_CLASS.catchUp, text: `catch-up ${duration(catchUp ?? 0)}` },
      ],
    },
  ];
  return (
    <table className="story-waterfall" data-testid="waterfall">
      <caption className="visually-hidden">Seconds of the first failure under each policy</caption>
      <tbody>
        {rows.map((row) => (
          <tr key={row.name}>
            <th scope="row">{row.name}</th>
            <td>
              <div className="wf-bar">
                {row.parts.map((p) => (
                  <span
                    key={p.text}
                    className={`wf-part ${p.cls}`}
                    style={{ width: scale(p.s) }}
                    title={p.text}
                  />
                ))}
              </div>
              <span className="muted">{row.parts.map((p) => p.text).join(" · ")}</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const FIRST_TEXT = "All replicas train. A host in one of them is about to fail.";
const PHASE_TEXT: Record<Phase["key"], string> = {
  detect:
    "Detect: the dead replica stops answering. The others wait inside FTAR until it is declared dead and the quorum shrinks. The synchronous job has stopped too.",
  restart:
    "Restart: only the failed replica restarts. The others train on, each step averaging the gradients of the survivors.",
  catchUp:
    "Catch-up: the restarted replica fetches weights and optimizer state from a healthy peer while the others keep training.",
  rejoin:
    "Rejoin: it joins the next step with a zero gradient; a short global stall while the ring re-forms.",
};
const LAST_TEXT = "Back to full strength. The synchronous job, meanwhile, was stopped the whole time.";

/**
 * The replay's steps: before, each phase that lasts (a phase of 0 s, like the paper's catch-up, is
 * no step: "Catch-up (0.0 s)" showed nothing happening), after.
 */
function stepsOf(r: Replay): { phase: Phase | null; text: string }[] {
  const lasting = r.phases.filter((p) => p.end > p.start);
  const skipped = r.phases.filter((p) => p.end <= p.start).map((p) => p.label.toLowerCase());
  const note =
    skipped.length > 0
      ? ` (This run spends no time in ${skipped.join(" or ")}: 0 s, so it has no step.)`
      : "";
  return [
    { phase: null, text: FIRST_TEXT },
    ...lasting.map((p, i) => ({
      phase: p,
      text: PHASE_TEXT[p.key] + (i === lasting.length - 1 ? note : ""),
    })),
    { phase: null, text: LAST_TEXT },
  ];
}

function ReplayFigure({ run }: { run: StoryRun }) {
  const r = replayOf(run);
  const steps = r ? stepsOf(r) : [{ phase: null, text: "" }];
  const [step, setStep] = useState(0);
  const go = useCallback((i: number) => setStep(i), []);
  useChapterSteps(step, steps.length, go);
  if (!r) return <p className="muted">This run had no failure.</p>;
  const phase = steps[step]?.phase ?? null;
  return (
    <>
      <div className="story-replay-controls">
        <button type="button" onClick={() => setStep((s) => Math.max(0, s - 1))} disabled={step === 0}>
          ◀ Back
        </button>
        <button
          type="button"
          onClick={() => setStep((s) => Math.min(steps.length - 1, s + 1))}
          disabled={step === steps.length - 1}
          data-testid="replay-next"
        >
          Next phase ▶
        </button>
        <span className="muted">
          step {step + 1} of {steps.length}
        </span>
      </div>
      <p className="story-step-text" aria-live="polite" data-testid="replay-text">
        {phase ? (
          <strong>
            {phase.label} ({duration(phase.end - phase.start)}):{" "}
          </strong>
        ) : null}
        {steps[step]?.text}
      </p>
      <Legend />
      <Lanes r={r} step={step} cursorPhase={phase} last={step === steps.length - 1} steps={steps.length} />
      <Waterfall r={r} />
    </>
  );
}

export function LoseReplicaChapter() {
  const loaded = usePromise("lose-a-replica", () => storyRun(HEADLINE_FIXED, true));
  return (
    <>
      <Prose>
        <p>
          FT-HSDP splits the GPUs into <Term id="replica">replicas</Term>: 12 copies of the model, each
          sharded over its own 1,024 hosts (
          <Term id="hsdp" />
          ). Replicas average their gradients through a fault-tolerant all-reduce (<Term id="ftar" />
          ). When a host fails, only its replica restarts; the others shrink the <Term id="quorum" /> and keep
          training, and the restarted replica does a <Term id="catchUp" /> from a peer. Step through the first
          failure of the paper's arithmetic below: the stall per failure drops from 10 to 3 minutes.
        </p>
        <WhenLoaded loaded={loaded}>
          {(run) => (
            <p data-testid="lose-numbers">
              Over 30 days with a failure every 18 minutes:{" "}
              <strong data-testid="lose-sync">{pct(run.synchronous.ettr)}</strong> synchronous,{" "}
              <strong data-testid="lose-ft">{pct(run.ftHsdp.ettr)}</strong> FT-HSDP (the paper: 44 % → 80 %).
            </p>
          )}
        </WhenLoaded>
      </Prose>
      <Figure label="One failure, phase by phase">
        <WhenLoaded loaded={loaded}>{(run) => <ReplayFigure run={run} />}</WhenLoaded>
      </Figure>
      <Sources items={[SRC.ftHsdp, SRC.ftHsdpReported, SRC.torchft]} />
    </>
  );
}
