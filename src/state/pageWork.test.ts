import { afterEach, describe, expect, it, vi } from "vitest";
import {
  beginPageWork,
  noteRunCommitted,
  PAGE_WORK_MAX_MS,
  pageWorkOpen,
  whenPageIdle,
  whenRunCommitted,
} from "./pageWork.ts";

afterEach(() => {
  vi.useRealTimers();
});

describe("the page's sliced work", () => {
  it("calls back only once every open piece of work has ended, and then once", async () => {
    vi.useFakeTimers();
    const a = beginPageWork();
    const b = beginPageWork();
    const done = vi.fn();
    whenPageIdle(done, 10_000);
    await vi.advanceTimersByTimeAsync(100);
    expect(done).not.toHaveBeenCalled();
    a();
    a(); // ending twice counts once: b is still open
    expect(pageWorkOpen()).toBe(1);
    await vi.advanceTimersByTimeAsync(100);
    expect(done).not.toHaveBeenCalled();
    b();
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(done).toHaveBeenCalledTimes(1);
  });

  it("calls back at the deadline when the work never ends", async () => {
    vi.useFakeTimers();
    const end = beginPageWork();
    const done = vi.fn();
    whenPageIdle(done, 3000);
    await vi.advanceTimersByTimeAsync(2999);
    expect(done).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toHaveBeenCalledTimes(1);
    end();
    await vi.advanceTimersByTimeAsync(10);
    expect(done).toHaveBeenCalledTimes(1);
  });

  it("waits again when new work begins before the idle moment comes", async () => {
    vi.useFakeTimers();
    const done = vi.fn();
    whenPageIdle(done, 10_000);
    // The idle moment is a task away: work that begins first holds it off.
    const end = beginPageWork();
    await vi.advanceTimersByTimeAsync(50);
    expect(done).not.toHaveBeenCalled();
    end();
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toHaveBeenCalledTimes(1);
  });

  it("ends a piece of work that is never ended, after PAGE_WORK_MAX_MS", async () => {
    vi.useFakeTimers();
    const end = beginPageWork();
    expect(pageWorkOpen()).toBe(1);
    await vi.advanceTimersByTimeAsync(PAGE_WORK_MAX_MS - 1);
    expect(pageWorkOpen()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(pageWorkOpen()).toBe(0);
    end(); // ending it later counts for nothing
    expect(pageWorkOpen()).toBe(0);
  });
});

describe("the page's first run, committed", () => {
  // One test: the first commit is once a page (module state), so the order of these cases matters.
  it("holds a caller until the first run is committed, or its deadline; later callers go at once", async () => {
    vi.useFakeTimers();
    const late = vi.fn();
    whenRunCommitted(late, 500);
    await vi.advanceTimersByTimeAsync(499);
    expect(late).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(late).toHaveBeenCalledTimes(1);

    const waiting = vi.fn();
    whenRunCommitted(waiting, 10_000);
    await vi.advanceTimersByTimeAsync(5000);
    expect(waiting).not.toHaveBeenCalled();
    noteRunCommitted();
    expect(waiting).toHaveBeenCalledTimes(1);
    noteRunCommitted(); // a second run's commit calls nobody twice
    await vi.advanceTimersByTimeAsync(10_000);
    expect(waiting).toHaveBeenCalledTimes(1);
    expect(late).toHaveBeenCalledTimes(1);

    const after = vi.fn();
    whenRunCommitted(after, 10_000);
    expect(after).toHaveBeenCalledTimes(1);
  });
});
