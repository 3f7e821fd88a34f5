import { useDeferredValue } from "react";
import { useAppStore } from "../state/store.ts";

/**
 * The recorded run as the views show it: the store's run, deferred. A new run arrives from the
 * worker in one message, and drawing it (a 100,000-replica run's lanes, legend, failure log,
 * charts and cards) was one ~100 ms render in that message's task: the store's updates are
 * synchronous (useSyncExternalStore). Deferred, the urgent render keeps the run on screen, and
 * the new one renders in a background pass that yields to the browser every few milliseconds
 * between components, then commits at once. Every view that shows the run reads it here, so they
 * all change together: no panel shows the new run beside another still showing the old one.
 */
export function useShownRun() {
  return useDeferredValue(useAppStore((s) => s.run));
}
