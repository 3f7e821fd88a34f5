/**
 * Work a link asks for on open (`sw=…,run`, `tn=…,run`) begins after the page's first frame and
 * its own first work (the recorded run drawn in slices), and plans in slices: begun at once, it
 * ran inside the page's first tasks and stretched them to 382–559 ms (issue 30 item 17). The
 * bench (bench/cluster.ts) reads the "link-run:start" mark against the first paint.
 */
import { whenPageIdle } from "./pageWork.ts";

/** The longest a link's run waits for the page to be idle after its first frame. */
export const LINK_RUN_WAIT_MS = 2000;
/** A slice of planning: well under the 200 ms a main-thread task may take, on a loaded machine too. */
export const SLICE_MS = 30;

/** Calls `f` after the next frame is drawn and the page is idle (or LINK_RUN_WAIT_MS later). */
export function startLinkRun(f: () => void): void {
  const go = () => {
    performance.mark("link-run:start");
    f();
  };
  const afterFrame = () => setTimeout(() => whenPageIdle(go, LINK_RUN_WAIT_MS), 0);
  if (typeof requestAnimationFrame === "function") requestAnimationFrame(afterFrame);
  else afterFrame();
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
