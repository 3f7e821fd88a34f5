/**
 * Work a link asks for on open (`sw=…,run`, `tn=…,run`) begins after the page's first frame and its
 * own first work (the recorded run committed, then drawn in slices), and plans in slices: begun at
 * once, it ran inside the page's first tasks and stretched them to 382–559 ms. The bench
 * (bench/cluster.ts) reads the "link-run:start" mark against the first paint.
 */
import { useStore } from "zustand";
import { createStore } from "zustand/vanilla";
import { whenPageIdle, whenRunCommitted } from "./pageWork.ts";

/** The work a link can start on open. */
export type LinkWork = "sweep" | "tornado";

/**
 * How many of each link work wait for the page (a second or more on a slow machine; a second
 * link read while one waits, by Back or Forward, waits too): the panel says so instead of
 * standing idle.
 */
export const linkWaitStore = createStore<Record<LinkWork, number>>()(() => ({ sweep: 0, tornado: 0 }));

export function useLinkWaiting(what: LinkWork): boolean {
  return useStore(linkWaitStore, (s) => s[what] > 0);
}

/** Link works asked for so far (each waits, then starts): see waiting. */
let asked = 0;

function waiting(what: LinkWork, change: 1 | -1): void {
  if (change > 0) asked++;
  linkWaitStore.setState((s) => ({ [what]: s[what] + change }));
  // On the page's root element for whoever watches the page (the e2e tests wait on these, not on
  // time): `data-link-runs-asked` counts the link works asked for, `data-link-runs-waiting` those
  // still waiting for the page.
  if (typeof document === "undefined") return;
  const { sweep, tornado } = linkWaitStore.getState();
  document.documentElement.dataset.linkRunsAsked = String(asked);
  document.documentElement.dataset.linkRunsWaiting = String(sweep + tornado);
}

/** The longest a link's run waits for the page to be idle after its first paint. */
export const LINK_RUN_WAIT_MS = 2000;
/** The longest it waits for a first paint (a tab opened in the background paints nothing). */
export const PAINT_WAIT_MS = 8000;
/**
 * The longest it waits after the first paint for the page's first run to be committed (a link to
 * another view commits none; a large scenario's run takes seconds: the link's work goes on then).
 */
export const RUN_WAIT_MS = 3000;
/** A slice of planning: well under the 200 ms a main-thread task may take, on a loaded machine too. */
export const SLICE_MS = 30;

/**
 * Calls `f` once the page's first contentful paint has happened (the first frame with the app
 * in it: an earlier frame may be blank), its first run is committed (RUN_WAIT_MS at most) and
 * the page is then idle, or PAINT_WAIT_MS after opening at the latest (a tab in the background
 * paints nothing). Begun before the run's commit, a sweep's workers took the cores that task
 * needed: 59 ms of CPU in it took 289 ms of wall time (bench/cluster.ts, load 2.8).
 */
export function startLinkRun(what: LinkWork, f: () => void): void {
  let started = false;
  waiting(what, 1);
  const go = () => {
    if (started) return;
    started = true;
    waiting(what, -1);
    performance.mark("link-run:start");
    f();
  };
  const deadline = setTimeout(go, PAINT_WAIT_MS);
  const afterPaint = () =>
    setTimeout(
      () =>
        whenRunCommitted(() => {
          clearTimeout(deadline);
          whenPageIdle(go, LINK_RUN_WAIT_MS);
        }, RUN_WAIT_MS),
      0,
    );
  if (
    typeof PerformanceObserver !== "function" ||
    !PerformanceObserver.supportedEntryTypes?.includes("paint")
  ) {
    // No paint timing (Node, in tests): after a frame where there are frames, else the next task.
    if (typeof requestAnimationFrame === "function") requestAnimationFrame(afterPaint);
    else afterPaint();
    return;
  }
  const painted = new PerformanceObserver((list) => {
    if (list.getEntriesByName("first-contentful-paint").length === 0) return;
    painted.disconnect();
    afterPaint();
  });
  painted.observe({ type: "paint", buffered: true });
}

/** Runs `steps` to its end in slices of about SLICE_MS, a task each, and gives its result. */
export function inSlices<T>(steps: Generator<unknown, T>): Promise<T> {
  return new Promise((resolve, reject) => {
    const slice = () => {
      try {
        const until = performance.now() + SLICE_MS;
        for (;;) {
          const r = steps.next();
          if (r.done) return resolve(r.value);
          if (performance.now() >= until) break;
        }
        setTimeout(slice, 0);
      } catch (e) {
        reject(e);
      }
    };
    slice();
  });
}
