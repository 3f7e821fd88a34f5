import { afterEach, describe, expect, it, vi } from "vitest";
import { linkWaitStore, RUN_WAIT_MS, startLinkRun } from "./linkRun.ts";
import { noteRunCommitted } from "./pageWork.ts";

afterEach(() => {
  vi.useRealTimers();
});

describe("a link's work on open", () => {
  // One test: the page's first commit happens once (module state), so the order of the cases matters.
  it("waits for the page's first run to be committed, at most RUN_WAIT_MS, and then goes at once", async () => {
    vi.useFakeTimers();
    const before = vi.fn();
    startLinkRun("sweep", before);
    await vi.advanceTimersByTimeAsync(RUN_WAIT_MS - 100);
    expect(before).not.toHaveBeenCalled();
    // The sweep's panel says it waits, for as long as any of its links waits; the tornado's has none.
    expect(linkWaitStore.getState()).toEqual({ sweep: 1, tornado: 0 });
    const second = vi.fn();
    startLinkRun("sweep", second);
    expect(linkWaitStore.getState()).toEqual({ sweep: 2, tornado: 0 });
    noteRunCommitted();
    await vi.advanceTimersByTimeAsync(1);
    expect(before).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(1);
    expect(linkWaitStore.getState().sweep).toBe(0);

    const after = vi.fn();
    startLinkRun("tornado", after);
    await vi.advanceTimersByTimeAsync(1);
    expect(after).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(before).toHaveBeenCalledTimes(1);
    expect(after).toHaveBeenCalledTimes(1);
  });
});
