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
    // The sweep's panel says it waits; the tornado's has nothing waiting.
    expect(linkWaitStore.getState()).toEqual({ sweep: true, tornado: false });
    noteRunCommitted();
    await vi.advanceTimersByTimeAsync(1);
    expect(before).toHaveBeenCalledTimes(1);
    expect(linkWaitStore.getState().sweep).toBe(false);

    const after = vi.fn();
    startLinkRun("tornado", after);
    await vi.advanceTimersByTimeAsync(1);
    expect(after).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(before).toHaveBeenCalledTimes(1);
    expect(after).toHaveBeenCalledTimes(1);
  });
});
