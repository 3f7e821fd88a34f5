/**
 * For tests of a watchdog (workerSupervisor and the stores built on it): a clock that moves only
 * when the test moves it. The timers are faked; the MessageChannel between the page and the
 * worker stand-in stays real. On a loaded machine a real clock let a healthy worker's reply, or
 * the tick between two signs of life, arrive after a 40–60 ms watchdog, and the test saw a
 * restart it did not cause. With this clock a worker is judged silent exactly when the test
 * advances time past the limit while the worker is in the state under test.
 */
import { vi } from "vitest";

export function useWatchdogClock(): void {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
}

/**
 * Real turns of the event loop (so messages are delivered) and no clock time, until `cond`
 * holds. A condition that never holds is caught by the test's own time limit.
 */
export async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise<void>((r) => nodeTurn(r));
}

/**
 * Node's setImmediate, which the fake clock leaves alone: one turn of the event loop. Reached
 * through globalThis because src/testing is type-checked without Node's types.
 */
const nodeTurn = (globalThis as unknown as { setImmediate: (f: () => void) => void }).setImmediate;
