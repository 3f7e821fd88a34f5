/**
 * What the page says when one of its workers died and was replaced (workerSupervisor.ts): the
 * numbers on screen were then computed again by a fresh worker, and the person should know why
 * they waited.
 */
import { useStore } from "zustand";
import { createStore } from "zustand/vanilla";

export interface WorkerHealth {
  notice: string | null;
  report(worker: string, reason: string): void;
  dismiss(): void;
}

export const workerHealth = createStore<WorkerHealth>()((set) => ({
  notice: null,
  report: (worker, reason) =>
    set({
      notice: `The ${worker} worker died (${reason}); a new one was started and the request run again.`,
    }),
  dismiss: () => set({ notice: null }),
}));

export function useWorkerHealth<T>(selector: (s: WorkerHealth) => T): T {
  return useStore(workerHealth, selector);
}

/** onRestart for a supervised call of the named worker. */
export const reportRestart = (worker: string) => (reason: string) =>
  workerHealth.getState().report(worker, reason);
