import { beforeEach, describe, expect, it } from "vitest";
import { runScenario } from "../sim/engine.ts";
import { parseScenario } from "../sim/scenario/index.ts";
import { explorerStore } from "./explorerStore.ts";
import { FAILURE_EVERY_MS, replayStore } from "./replayStore.ts";
import { appStore } from "./store.ts";
import { nextChange } from "./traceAt.ts";

/** Two days of a small cluster, recorded: a failure every ~2 h. */
const scenario = parseScenario({
  cluster: { gpus: 256, gpusPerHost: 8, replicas: 4 },
  training: { days: 2 },
  failures: { perHostDay: 0.4 },
  seed: 3,
});
const run = runScenario(scenario, { record: true });
const trace = run.trace;
if (!trace) throw new Error("no trace recorded");
const H = 2 * 86_400;
const replay = () => replayStore.getState();

beforeEach(() => {
  replay().stop();
  replay().setSpeed("10m");
  explorerStore.setState({ window: null });
  appStore.setState({ run });
});

describe("replay", () => {
  it("moves the cursor at the chosen speed while playing, and not while paused", () => {
    replay().play();
    expect(replay().playing).toBe(true);
    expect(replay().cursor).toBe(0);
    replay().advance(50);
    expect(replay().cursor).toBeCloseTo(30, 9); // 10 simulated minutes a second
    replay().setSpeed("1h");
    replay().advance(100);
    expect(replay().cursor).toBeCloseTo(30 + 360, 9);
    replay().pause();
    replay().advance(100);
    expect(replay().cursor).toBeCloseTo(390, 9);
  });

  it("accounts for at most a tenth of a second per frame", () => {
    replay().play();
    replay().advance(5000);
    expect(replay().cursor).toBeCloseTo(60, 9);
  });

  it("failure by failure: jumps to each failure in turn, once a second", () => {
    replay().setSpeed("failure");
    replay().play();
    const frames = (n: number) => {
      for (let i = 0; i < n; i++) replay().advance(FAILURE_EVERY_MS / 10);
    };
    frames(9);
    expect(replay().cursor).toBe(0);
    frames(1);
    expect(replay().cursor).toBe(trace.failures.time[0]);
    frames(10);
    expect(replay().cursor).toBe(trace.failures.time[1]);
  });

  it("stops at the end of the run, and plays again from the start", () => {
    replay().setSpeed("1d");
    replay().play();
    for (let i = 0; i < 40; i++) replay().advance(100);
    expect(replay().cursor).toBe(H);
    expect(replay().playing).toBe(false);
    replay().play();
    expect(replay().cursor).toBe(0);
  });

  it("steps from one change on the timeline to the next and back, pausing", () => {
    replay().play();
    replay().step(1);
    expect(replay().playing).toBe(false);
    const first = replay().cursor ?? -1;
    expect(first).toBe(trace.failures.time[0]);
    replay().step(1);
    const second = replay().cursor ?? -1;
    expect(second).toBe(nextChange(trace, first));
    replay().step(-1);
    expect(replay().cursor).toBe(first);
  });

  it("keeps the cursor on screen: narrows a whole-run view to a page, then turns pages", () => {
    replay().setSpeed("1m");
    replay().play();
    // One page = a minute of playback = an hour of the run.
    expect(explorerStore.getState().window).toEqual([0, 3600]);
    for (let i = 0; i < 600; i++) replay().advance(100); // 3600 simulated seconds
    const c = replay().cursor ?? 0;
    const w = explorerStore.getState().window;
    expect(w).not.toBeNull();
    const [a, b] = w ?? [0, 0];
    expect(b - a).toBeCloseTo(3600, 6);
    expect(c).toBeGreaterThanOrEqual(a);
    expect(c).toBeLessThanOrEqual(a + 0.95 * (b - a));
  });

  it("a window the person chooses pauses it and says so; its own page turns do not", () => {
    replay().setSpeed("1m");
    replay().play();
    // Its own page turns, and a view's echo of them inside the same call (the timeline stores the
    // window it shows, rounded), leave it playing.
    const unsub = explorerStore.subscribe((st, prev) => {
      const w = st.window;
      if (w && w !== prev.window && w[0] !== Math.round(w[0]))
        explorerStore.getState().setWindow([Math.round(w[0]), Math.round(w[1])]);
    });
    for (let i = 0; i < 700; i++) replay().advance(100);
    unsub();
    expect(replay().playing).toBe(true);
    expect(replay().pausedBy).toBeNull();
    // A resize re-stores the window it keeps showing, rounded to tenths, outside any page turn:
    // the same span, so it plays on; a pan of a second is the person's, so it pauses.
    const [a0, b0] = explorerStore.getState().window ?? [0, 0];
    explorerStore.getState().setWindow([Math.round(a0 * 10) / 10 + 0.04, Math.round(b0 * 10) / 10]);
    expect(replay().playing).toBe(true);
    explorerStore.getState().setWindow([a0 + 1, b0 + 1]);
    expect(replay().pausedBy).toBe("navigation");
    replay().play();
    // "Whole run": the window stays the whole run; the cursor stays where it was.
    const c = replay().cursor;
    explorerStore.getState().setWindow(null);
    expect(replay().playing).toBe(false);
    expect(replay().pausedBy).toBe("navigation");
    for (let i = 0; i < 50; i++) replay().advance(100);
    expect(explorerStore.getState().window).toBeNull();
    expect(replay().cursor).toBe(c);
    // A failure-log row (focusFailure) while playing: the window it chose stays.
    replay().play();
    expect(replay().pausedBy).toBeNull();
    explorerStore.getState().focusFailure(1, trace.failures.time[1] as number, 2400);
    const chosen = explorerStore.getState().window;
    for (let i = 0; i < 50; i++) replay().advance(100);
    expect(replay().playing).toBe(false);
    expect(explorerStore.getState().window).toBe(chosen);
    // Play, then Stop: no note left.
    replay().play();
    replay().stop();
    expect(replay().pausedBy).toBeNull();
  });

  it("a new run removes the cursor", () => {
    replay().play();
    replay().advance(100);
    appStore.setState({ run: runScenario(scenario, { record: true }) });
    expect(replay().cursor).toBeNull();
    expect(replay().playing).toBe(false);
  });
});
