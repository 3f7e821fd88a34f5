/**
 * The timeline's scheduler and key queue (timelineTasks.ts), on a test's clock and frames (no timing: each step
 * advances the clock by a stated amount, and frames run when the test says).
 */
import { describe, expect, it } from "vitest";
import { type Frames, KeyQueue, MAX_QUEUED_KEYS, SLICE_BUDGET_MS, SliceScheduler } from "./timelineTasks.ts";

function testFrames() {
  let clock = 0;
  let queued: (() => void)[] = [];
  const frames: Frames = {
    now: () => clock,
    request: (cb) => queued.push(cb),
    cancel: (id) => {
      if (id > 0) queued[id - 1] = () => {};
    },
  };
  return {
    frames,
    advance: (ms: number) => {
      clock += ms;
    },
    /** Runs the frames requested so far; returns how many ran. */
    runFrames: () => {
      const now = queued;
      queued = [];
      for (const cb of now) cb();
      return now.length;
    },
  };
}

describe("the sliced scheduler", () => {
  it("runs a frame's steps in slices of about the budget, in order, and says when it is whole", () => {
    const t = testFrames();
    const slices: [number, number][] = [];
    const s = new SliceScheduler(SLICE_BUDGET_MS, t.frames, (a, b) => slices.push([a, b]));
    const ran: number[] = [];
    let done = 0;
    // Ten steps of 15 ms: a slice runs steps until it has passed 40 ms, i.e. three at a time.
    const steps = Array.from({ length: 10 }, (_, i) => () => {
      ran.push(i);
      t.advance(15);
    });
    s.start(steps, () => done++);
    expect(ran).toEqual([0, 1, 2]);
    expect(s.busy).toBe(true);
    expect(t.runFrames()).toBe(1);
    expect(ran).toEqual([0, 1, 2, 3, 4, 5]);
    t.runFrames();
    t.runFrames();
    expect(ran).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(done).toBe(1);
    expect(s.busy).toBe(false);
    expect(t.runFrames()).toBe(0);
    // No slice ran past the budget by more than its last step.
    for (const [a, b] of slices) expect(b - a).toBeLessThanOrEqual(SLICE_BUDGET_MS + 15);
    expect(slices).toHaveLength(4);
  });

  it("a frame of cheap steps is one slice: drawn and shown in the task that asked", () => {
    const t = testFrames();
    const s = new SliceScheduler(SLICE_BUDGET_MS, t.frames);
    let done = 0;
    s.start(
      Array.from({ length: 50 }, () => () => t.advance(0.1)),
      () => done++,
    );
    expect(done).toBe(1);
    expect(t.runFrames()).toBe(0);
  });

  it("a newer frame replaces one still being drawn: the old one never completes", () => {
    const t = testFrames();
    const s = new SliceScheduler(SLICE_BUDGET_MS, t.frames);
    const finished: string[] = [];
    const slow = (name: string) =>
      Array.from({ length: 6 }, () => () => {
        t.advance(30);
      }).concat(() => finished.push(name));
    s.start(slow("old"), () => finished.push("old done"));
    s.start(slow("new"), () => finished.push("new done"));
    while (t.runFrames() > 0) {}
    expect(finished).toEqual(["new", "new done"]);
  });
});

describe("the key queue", () => {
  it("applies kept keys in the order they came, once", () => {
    const q = new KeyQueue();
    const out: string[] = [];
    for (const k of ["+", "+", "ArrowLeft", "-"]) q.push(() => out.push(k));
    expect(out).toEqual([]);
    q.flush();
    expect(out).toEqual(["+", "+", "ArrowLeft", "-"]);
    q.flush();
    expect(out).toHaveLength(4);
  });

  it("keeps at most MAX_QUEUED_KEYS: the oldest go", () => {
    const q = new KeyQueue();
    const out: number[] = [];
    for (let i = 0; i < MAX_QUEUED_KEYS + 5; i++) q.push(() => out.push(i));
    expect(q.length).toBe(MAX_QUEUED_KEYS);
    q.flush();
    expect(out[0]).toBe(5);
    expect(out).toHaveLength(MAX_QUEUED_KEYS);
  });
});
