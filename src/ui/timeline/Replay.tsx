/**
 * The replay's controls and read-out above the timeline. The controls re-render only when play,
 * pause or the speed change; the read-out (clock, each selected policy's useful-training counter
 * and state, the replica phases lit at the cursor) is written straight into the DOM from a store subscription, so a
 * replay frame costs a few text updates, not a React render. Screen readers hear the moment only
 * when the replay stops or steps, not sixty times a second.
 */

import { useEffect, useRef } from "react";
import { policyOf } from "../../sim/policies/index.ts";
import { FtPhase, SyncState, type Trace } from "../../sim/types.ts";
import { REPLAY_SPEEDS, type ReplaySpeed, replayStore, useReplayStore } from "../../state/replayStore.ts";
import { momentAt, type PolicyMoment } from "../../state/traceAt.ts";
import { policyStyle } from "../policyColour.ts";
import { formatClock } from "./timeAxis.ts";

export function ReplayControls() {
  const playing = useReplayStore((s) => s.playing);
  const speed = useReplayStore((s) => s.speed);
  const started = useReplayStore((s) => s.cursor !== null);
  const pausedBy = useReplayStore((s) => s.pausedBy);
  const { toggle, step, setSpeed, stop } = replayStore.getState();
  return (
    <div className="replay-tools" role="toolbar" aria-label="Replay">
      <button
        type="button"
        className="primary replay-play"
        onClick={toggle}
        aria-pressed={playing}
        data-testid="replay-play"
      >
        {playing ? "❚❚ Pause" : "▶ Replay"}
      </button>
      <label className="replay-speed">
        <span>Speed</span>
        <select value={speed} onChange={(e) => setSpeed(e.target.value as ReplaySpeed)}>
          {REPLAY_SPEEDS.map((s) => (
            <option key={s.id} value={s.id}>
              {s.label}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        onClick={() => step(-1)}
        aria-label="Previous change (,)"
        title="Previous change (,)"
      >
        ◀ Step
      </button>
      <button type="button" onClick={() => step(1)} aria-label="Next change (.)" title="Next change (.)">
        Step ▶
      </button>
      <button type="button" onClick={stop} disabled={!started}>
        Stop
      </button>
      {pausedBy === "navigation" ? (
        <span className="muted small" role="status" data-testid="replay-paused-note">
          Paused: you moved the timeline. ▶ Replay goes on from the cursor.
        </span>
      ) : null}
    </div>
  );
}

const SYNC_STATE: Record<number, string> = {
  [SyncState.recovering]: "recovering: the whole job is stopped",
  [SyncState.checkpointing]: "writing a checkpoint",
  [SyncState.rolledBack]: "training that a failure will roll back",
  [SyncState.waitSpare]: "waiting for spare hosts: the whole job is stopped",
  [SyncState.migrating]: "migrating to standbys: the whole job waits",
};

/** The phase chips, in the order a failed replica goes through them. */
const PHASES = [
  { phase: FtPhase.detect, label: "detect", cls: "sw-down" },
  { phase: FtPhase.restart, label: "restart", cls: "sw-down" },
  { phase: FtPhase.catchUp, label: "catch-up", cls: "sw-catchup" },
  { phase: FtPhase.rejoin, label: "rejoin", cls: "sw-rejoin" },
] as const;

const hours = (s: number) => `${(s / 3600).toFixed(2)} h`;
const share = (useful: number, t: number) => (t > 0 ? `${((100 * useful) / t).toFixed(1)} %` : "—");

/** A policy's state at the moment, in words, by its recording's kind. */
function stateText(trace: Trace, m: PolicyMoment, replicas: number): string {
  if (m.kind === "wholeJob") {
    const rec = trace.recordings[m.key];
    if (m.row < 0 || rec?.kind !== "wholeJob") return "training";
    return SYNC_STATE[rec.intervals.state[m.row] as number] ?? "recovering";
  }
  const down = m.ft.rows.length;
  const more = m.ft.partial ? "+" : "";
  const healthy = Math.max(0, replicas - down);
  if (m.stallRow >= 0) return `stalled: every replica waits (${down}${more} recovering)`;
  return down === 0 ? `all ${replicas} replicas training` : `${healthy} of ${replicas} replicas training`;
}

export function ReplayReadout({ trace, replicas }: { trace: Trace; replicas: number }) {
  const box = useRef<HTMLDivElement>(null);
  const started = useReplayStore((s) => s.cursor !== null);

  useEffect(() => {
    const el = box.current;
    if (!el || !started) return;
    const q = (id: string) => el.querySelector<HTMLElement>(`[data-part="${id}"]`);
    const clock = q("clock");
    const said = q("said");
    const counters = trace.policies.map((key) => ({
      key,
      label: policyOf(key).label,
      useful: q(`useful-${key}`),
      share: q(`share-${key}`),
      state: q(`state-${key}`),
    }));
    const chips = PHASES.map((p) => ({ phase: p.phase, el: q(`phase-${p.phase}`) }));
    const stallChip = q("phase-stall");
    const set = (node: HTMLElement | null, text: string) => {
      if (node && node.textContent !== text) node.textContent = text;
    };
    const show = (cursor: number | null, speak: boolean) => {
      if (cursor === null) return;
      const m = momentAt(trace, cursor);
      set(clock, formatClock(cursor));
      const words: string[] = [];
      const phaseCounts = [0, 0, 0, 0, 0, 0, 0];
      let stalled = false;
      for (const c of counters) {
        const pm = m.policies.find((p) => p.key === c.key);
        if (!pm) continue;
        const state = stateText(trace, pm, replicas);
        set(c.useful, hours(pm.useful));
        set(c.share, share(pm.useful, cursor));
        set(c.state, state);
        words.push(`${c.label}: ${state}.`);
        if (pm.kind === "replicas") {
          pm.ft.phaseCounts.forEach((n, k) => {
            phaseCounts[k] = (phaseCounts[k] ?? 0) + n;
          });
          stalled ||= pm.stallRow >= 0;
        }
      }
      for (const c of chips) {
        const n = phaseCounts[c.phase] ?? 0;
        c.el?.setAttribute("data-on", String(n > 0));
        set(c.el?.querySelector(".replay-count") ?? null, n > 0 ? `×${n}` : "");
      }
      stallChip?.setAttribute("data-on", String(stalled));
      if (speak) set(said, `${formatClock(cursor)}. ${words.join(" ")}`);
    };
    const st = replayStore.getState();
    show(st.cursor, !st.playing);
    return replayStore.subscribe((s, prev) => {
      if (s.cursor !== prev.cursor || s.playing !== prev.playing) show(s.cursor, !s.playing);
    });
  }, [trace, replicas, started]);

  if (!started) return null;
  const hasReplicas = trace.policies.some((k) => trace.recordings[k]?.kind === "replicas");
  return (
    <div className="replay-readout" ref={box} data-testid="replay-readout">
      <div className="replay-clock">
        <span className="muted">Replay at</span> <strong data-part="clock" data-testid="replay-clock" />
      </div>
      <div className="replay-counters">
        {trace.policies.map((key) => (
          <span className="replay-counter" key={key} data-policy={key} style={policyStyle(key)}>
            <span className="muted">{policyOf(key).label}, useful so far</span>{" "}
            <strong data-part={`useful-${key}`} data-testid={`replay-useful-${key}`} />{" "}
            <span className="muted">
              (<span data-part={`share-${key}`} />)
            </span>
            <span className="replay-state" data-part={`state-${key}`} />
          </span>
        ))}
      </div>
      {hasReplicas && (
        <ul className="replay-phases" aria-label="Replica phases at the cursor">
          {PHASES.map((p) => (
            <li
              key={p.phase}
              data-part={`phase-${p.phase}`}
              data-testid={`replay-phase-${p.label}`}
              data-on="false"
            >
              <span className={`swatch ${p.cls}`} aria-hidden="true" />
              {p.label}
              <span className="replay-count" />
            </li>
          ))}
          <li data-part="phase-stall" data-testid="replay-phase-stall" data-on="false">
            <span className="swatch sw-stalled" aria-hidden="true" />
            global stall
          </li>
        </ul>
      )}
      <p className="visually-hidden" aria-live="polite" data-part="said" />
    </div>
  );
}
