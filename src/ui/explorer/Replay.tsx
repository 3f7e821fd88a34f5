/**
 * The replay's controls and read-out above the timeline. The controls re-render only when play,
 * pause or the speed change; the read-out (clock, useful-training counters of both policies, the
 * phases lit at the cursor) is written straight into the DOM from a store subscription, so a
 * replay frame costs a few text updates, not a React render. Screen readers hear the moment only
 * when the replay stops or steps, not sixty times a second.
 */
import { useEffect, useRef } from "react";
import { FtPhase, SyncState, type Trace } from "../../sim/types.ts";
import { REPLAY_SPEEDS, type ReplaySpeed, replayStore, useReplayStore } from "../../state/replayStore.ts";
import { type Moment, momentAt } from "../../state/traceAt.ts";
import { formatClock } from "./timeAxis.ts";

export function ReplayControls() {
  const playing = useReplayStore((s) => s.playing);
  const speed = useReplayStore((s) => s.speed);
  const started = useReplayStore((s) => s.cursor !== null);
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
    </div>
  );
}

const SYNC_STATE: Record<number, string> = {
  [SyncState.recovering]: "recovering: the whole job is stopped",
  [SyncState.checkpointing]: "writing a checkpoint",
  [SyncState.rolledBack]: "training that a failure will roll back",
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

function syncText(trace: Trace, m: Moment): string {
  return m.syncRow >= 0 ? (SYNC_STATE[trace.sync.state[m.syncRow] as number] ?? "recovering") : "training";
}

function ftText(m: Moment, replicas: number): string {
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
    const parts = {
      clock: q("clock"),
      sync: q("sync"),
      syncShare: q("sync-share"),
      ft: q("ft"),
      ftShare: q("ft-share"),
      syncState: q("sync-state"),
      ftState: q("ft-state"),
      said: q("said"),
    };
    const chips = PHASES.map((p) => ({ phase: p.phase, el: q(`phase-${p.phase}`) }));
    const stallChip = q("phase-stall");
    const set = (node: HTMLElement | null, text: string) => {
      if (node && node.textContent !== text) node.textContent = text;
    };
    const show = (cursor: number | null, speak: boolean) => {
      if (cursor === null) return;
      const m = momentAt(trace, cursor);
      set(parts.clock, formatClock(cursor));
      set(parts.sync, hours(m.useful.synchronous));
      set(parts.syncShare, share(m.useful.synchronous, cursor));
      set(parts.ft, hours(m.useful.ftHsdp));
      set(parts.ftShare, share(m.useful.ftHsdp, cursor));
      set(parts.syncState, syncText(trace, m));
      set(parts.ftState, ftText(m, replicas));
      for (const c of chips) {
        const n = m.ft.phaseCounts[c.phase];
        c.el?.setAttribute("data-on", String(n > 0));
        set(c.el?.querySelector(".replay-count") ?? null, n > 0 ? `×${n}` : "");
      }
      stallChip?.setAttribute("data-on", String(m.stallRow >= 0));
      if (speak)
        set(
          parts.said,
          `${formatClock(cursor)}. Synchronous: ${syncText(trace, m)}. FT-HSDP: ${ftText(m, replicas)}.`,
        );
    };
    const st = replayStore.getState();
    show(st.cursor, !st.playing);
    return replayStore.subscribe((s, prev) => {
      if (s.cursor !== prev.cursor || s.playing !== prev.playing) show(s.cursor, !s.playing);
    });
  }, [trace, replicas, started]);

  if (!started) return null;
  return (
    <div className="replay-readout" ref={box} data-testid="replay-readout">
      <div className="replay-clock">
        <span className="muted">Replay at</span> <strong data-part="clock" data-testid="replay-clock" />
      </div>
      <div className="replay-counters">
        <span className="replay-counter replay-sync">
          <span className="muted">Synchronous, useful so far</span>{" "}
          <strong data-part="sync" data-testid="replay-useful-sync" />{" "}
          <span className="muted">
            (<span data-part="sync-share" />)
          </span>
          <span className="replay-state" data-part="sync-state" />
        </span>
        <span className="replay-counter replay-ft">
          <span className="muted">FT-HSDP, useful so far</span>{" "}
          <strong data-part="ft" data-testid="replay-useful-ft" />{" "}
          <span className="muted">
            (<span data-part="ft-share" />)
          </span>
          <span className="replay-state" data-part="ft-state" />
        </span>
      </div>
      <ul className="replay-phases" aria-label="FT-HSDP phases at the cursor">
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
      <p className="visually-hidden" aria-live="polite" data-part="said" />
    </div>
  );
}
