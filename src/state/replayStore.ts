/**
 * The replay of a recorded run: a cursor moving through simulated time at a chosen speed, or
 * failure to failure, or stepped by hand from one change to the next (what a presenter's ←/→ and
 * space drive). The cursor lives here so every view that shows the run can follow it; views
 * subscribe without React for per-frame work (the timeline draws straight onto its canvas).
 * The replay reads the run the app store holds; it never simulates.
 *
 * The clock is `advance(ms)`: play() calls it from requestAnimationFrame, tests call it directly.
 *
 * Navigation wins over the replay: a window the person chose (Whole run, a zoom, a pan,
 * a failure-log row, a link) pauses a playing replay, which otherwise turned the page back to its
 * cursor at its next frame. Only the pages the replay turns itself leave it playing.
 */
import { useStore } from "zustand";
import { createStore } from "zustand/vanilla";
import { derived } from "../sim/scenario/index.ts";
import type { Trace } from "../sim/types.ts";
import { explorerStore, type TimeWindow } from "./explorerStore.ts";
import { appStore } from "./store.ts";
import { nextChange, nextFailure, previousChange } from "./traceAt.ts";

export const REPLAY_SPEEDS = [
  { id: "1m", label: "1 min/s", secondsPerSecond: 60 },
  { id: "10m", label: "10 min/s", secondsPerSecond: 600 },
  { id: "1h", label: "1 h/s", secondsPerSecond: 3600 },
  { id: "1d", label: "1 day/s", secondsPerSecond: 86_400 },
  { id: "failure", label: "1 failure/s", secondsPerSecond: null },
] as const;
export type ReplaySpeed = (typeof REPLAY_SPEEDS)[number]["id"];

/** Real milliseconds between jumps when replaying failure by failure. */
export const FAILURE_EVERY_MS = 1000;
/** Longest real time one frame may account for: a frame late by seconds does not leap ahead. */
const MAX_FRAME_MS = 100;
/** Playback seconds one page of the timeline shows when the replay picks the window. */
const PAGE_PLAYBACK_SECONDS = 60;
/** Failures one page shows when replaying failure by failure. */
const PAGE_FAILURES = 12;

export interface ReplayState {
  /** Simulated seconds; null while no replay has started (no cursor shown). */
  cursor: number | null;
  playing: boolean;
  /** Why the replay last paused by itself: "navigation" when the person moved the timeline; null otherwise. */
  pausedBy: "navigation" | null;
  speed: ReplaySpeed;
  play(): void;
  pause(): void;
  toggle(): void;
  /** Move the cursor to the next (+1) or previous (−1) change on the timeline; pauses. */
  step(direction: 1 | -1): void;
  setSpeed(speed: ReplaySpeed): void;
  /** Put the cursor at t (clamped to the run). */
  seek(t: number): void;
  /** Remove the cursor and stop. */
  stop(): void;
  /** The clock: account for `ms` of real time at the current speed (nothing while paused). */
  advance(ms: number): void;
}

interface Recorded {
  trace: Trace;
  horizon: number;
}

let recorded: Recorded | null = null;
/** The recorded run the replay moves through (null until a run with a trace is back). */
function current(): Recorded | null {
  const run = appStore.getState().run;
  if (!run?.trace) return null;
  if (recorded?.trace !== run.trace)
    recorded = { trace: run.trace, horizon: derived(run.scenario).horizonSeconds };
  return recorded;
}

/** Real time accumulated towards the next jump while replaying failure by failure. */
let sinceJump = 0;
let frame = 0;
let lastFrame = 0;
/** User Timing entries written, so the buffer stays bounded. */
let measures = 0;

function speedOf(id: ReplaySpeed) {
  return REPLAY_SPEEDS.find((s) => s.id === id) ?? REPLAY_SPEEDS[0];
}

/** The window span a page shows at this speed (the whole run if it is shorter). */
function pageSpan(r: Recorded, speed: ReplaySpeed): number {
  const sps = speedOf(speed).secondsPerSecond;
  const failures = r.trace.failures.time.length;
  const span =
    sps === null ? (PAGE_FAILURES * r.horizon) / Math.max(1, failures) : sps * PAGE_PLAYBACK_SECONDS;
  return Math.min(r.horizon, span);
}

/**
 * Keep the cursor on screen: when it leaves the visible window (or nears its right edge while
 * playing), turn the page so the cursor sits a tenth of the way in. A whole-run view that is far
 * too wide for the speed is narrowed to one page first. Pages turn rarely, so the views that
 * follow the window re-render rarely.
 */
function follow(r: Recorded, t: number, speed: ReplaySpeed, playing: boolean): void {
  const w = explorerStore.getState().window;
  const span = pageSpan(r, speed);
  const [a, b]: TimeWindow = w ?? [0, r.horizon];
  const tooWide = w === null && span < r.horizon / 2;
  const edge = playing ? a + 0.95 * (b - a) : b;
  if (!tooWide && t >= a && t <= edge) return;
  const width = tooWide ? span : b - a;
  if (width >= r.horizon) return;
  const start = Math.max(0, Math.min(r.horizon - width, t - 0.1 * width));
  // The views that follow the window answer within this call (the timeline stores the window it
  // shows, rounded): all of it is the replay's own page turn, not navigation.
  turningPage = true;
  try {
    explorerStore.getState().setWindow([start, start + width]);
  } finally {
    turningPage = false;
  }
}

/** True while the replay itself moves the window (follow). */
let turningPage = false;

export const replayStore = createStore<ReplayState>()((set, get) => {
  const moveTo = (t: number) => {
    const r = current();
    if (!r) return;
    const c = Math.max(0, Math.min(r.horizon, t));
    set({ cursor: c });
    follow(r, c, get().speed, get().playing);
  };

  const tick = (now: number) => {
    frame = 0;
    if (!get().playing) return;
    const ms = lastFrame ? now - lastFrame : 0;
    lastFrame = now;
    const started = performance.now();
    get().advance(ms);
    // The whole frame (the views that follow the cursor draw inside advance), for bench:ui.
    if (++measures > 5000) {
      performance.clearMeasures("replay-frame");
      measures = 0;
    }
    performance.measure("replay-frame", { start: started, end: performance.now() });
    if (get().playing) frame = requestAnimationFrame(tick);
  };

  return {
    cursor: null,
    playing: false,
    pausedBy: null,
    speed: "10m",
    play: () => {
      const r = current();
      if (!r || get().playing) return;
      const c = get().cursor;
      // From the start of the visible window when there is no cursor yet, from the start at the end.
      const w = explorerStore.getState().window;
      const from = c === null || c >= r.horizon ? (w && c === null ? w[0] : 0) : c;
      sinceJump = 0;
      set({ playing: true, pausedBy: null });
      moveTo(from);
      if (typeof requestAnimationFrame === "function") {
        lastFrame = 0;
        frame = requestAnimationFrame(tick);
      }
    },
    pause: () => {
      if (frame && typeof cancelAnimationFrame === "function") cancelAnimationFrame(frame);
      frame = 0;
      set({ playing: false, pausedBy: null });
    },
    toggle: () => (get().playing ? get().pause() : get().play()),
    step: (direction) => {
      const r = current();
      if (!r) return;
      get().pause();
      const c = get().cursor ?? (direction > 0 ? (explorerStore.getState().window?.[0] ?? 0) : r.horizon);
      const t = direction > 0 ? nextChange(r.trace, c) : previousChange(r.trace, c);
      moveTo(Number.isFinite(t) ? t : r.horizon);
    },
    setSpeed: (speed) => {
      sinceJump = 0;
      set({ speed });
    },
    seek: (t) => moveTo(t),
    stop: () => {
      get().pause();
      set({ cursor: null, pausedBy: null });
    },
    advance: (ms) => {
      const r = current();
      const c = get().cursor;
      if (!r || c === null || !get().playing) return;
      const dt = Math.min(Math.max(0, ms), MAX_FRAME_MS);
      const sps = speedOf(get().speed).secondsPerSecond;
      let t = c;
      if (sps !== null) t = c + (dt / 1000) * sps;
      else {
        sinceJump += dt;
        if (sinceJump < FAILURE_EVERY_MS) return;
        sinceJump = 0;
        const i = nextFailure(r.trace, c);
        t = i >= 0 ? (r.trace.failures.time[i] as number) : r.horizon;
      }
      moveTo(t);
      if (t >= r.horizon) get().pause();
    },
  };
});

// A new run (another scenario, or the same one recomputed) ends the replay of the old one.
appStore.subscribe((s, prev) => {
  if (s.run !== prev.run && replayStore.getState().cursor !== null) replayStore.getState().stop();
});

/** Two windows equal up to the timeline's rounding (tenths of a second). */
function sameSpan(a: TimeWindow | null, b: TimeWindow | null): boolean {
  if (a === null || b === null) return a === b;
  return Math.abs(a[0] - b[0]) <= 0.051 && Math.abs(a[1] - b[1]) <= 0.051;
}

// A window the person chose pauses a playing replay (see the file comment).
explorerStore.subscribe((s, prev) => {
  if (s.window === prev.window || turningPage || !replayStore.getState().playing) return;
  // The same span said again is no navigation: a resize (a scrollbar appearing as the replay's
  // readout grows the page) makes the timeline store the window it keeps showing, rounded to
  // tenths of a second, outside the replay's own page turn.
  if (sameSpan(s.window, prev.window)) return;
  replayStore.getState().pause();
  replayStore.setState({ pausedBy: "navigation" });
});

export function useReplayStore<T>(selector: (s: ReplayState) => T): T {
  return useStore(replayStore, selector);
}
