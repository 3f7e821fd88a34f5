/**
 * Work the page spreads over several tasks or frames (the timeline builds its scene in tasks and
 * draws a frame in slices): while any is in progress the page is not done drawing, though the
 * browser may find an idle moment between two slices. The Monte Carlo's pool computes on fewer
 * cores while any is open (mcPool.ts), and the cluster runner waits for the page to be done
 * before it lets the pool take every core again after a new run (clusterRunner.ts).
 */

let open = 0;
let quiet: (() => void)[] = [];
/** Told each time the last open work ends (the Monte Carlo's pool, to compute again). */
const listeners = new Set<() => void>();

/**
 * The longest a piece of work counts as open: a frame that never completes (a canvas with no
 * context, a tab in the background) must not hold the Monte Carlo back for good.
 */
export const PAGE_WORK_MAX_MS = 5000;

/**
 * Marks sliced work as begun; call the returned function (once; later calls do nothing) when it
 * ends or is cancelled. It ends by itself after PAGE_WORK_MAX_MS.
 */
export function beginPageWork(): () => void {
  open++;
  let ended = false;
  const expiry = setTimeout(() => end(), PAGE_WORK_MAX_MS);
  const end = () => {
    if (ended) return;
    ended = true;
    clearTimeout(expiry);
    open--;
    if (open === 0) {
      const waiting = quiet;
      quiet = [];
      for (const f of waiting) f();
      for (const f of listeners) f();
    }
  };
  return end;
}

/** Calls `f` each time the last open work ends; returns a function that stops it. */
export function onPageQuiet(f: () => void): () => void {
  listeners.add(f);
  return () => listeners.delete(f);
}

/** Sliced work in progress now. */
export function pageWorkOpen(): number {
  return open;
}

/**
 * Calls `done` once, when no sliced work is open and the browser then reports an idle period
 * (requestIdleCallback; without it, as in Node, the next task), or after `maxWaitMs` at the latest:
 * a view that never ends its work does not hold the caller forever.
 */
export function whenPageIdle(done: () => void, maxWaitMs: number): void {
  const { finish, called } = onceBy(done, maxWaitMs);
  const idle = (f: () => void) => {
    if (typeof requestIdleCallback === "function") requestIdleCallback(f);
    else setTimeout(f, 0);
  };
  const check = () => {
    if (called()) return;
    if (open > 0) quiet.push(check);
    else idle(() => (open > 0 ? quiet.push(check) : finish()));
  };
  check();
}

/**
 * The page's first recorded run, committed to the screen (the Cluster view says so from its
 * layout effect): the largest single task of opening a link. Work a link starts on open waits for
 * it (linkRun.ts), so that task does not share the machine's cores with a sweep's workers.
 */
let runCommitted = false;
let onRunCommitted: (() => void)[] = [];

export function noteRunCommitted(): void {
  if (runCommitted) return;
  runCommitted = true;
  const waiting = onRunCommitted;
  onRunCommitted = [];
  for (const f of waiting) f();
}

/** Calls `done` once, when a run has been committed (at once if one has), or after `maxWaitMs`. */
export function whenRunCommitted(done: () => void, maxWaitMs: number): void {
  if (runCommitted) {
    done();
    return;
  }
  onRunCommitted.push(onceBy(done, maxWaitMs).finish);
}

/** `done` once: when `finish` is first called, or after `maxWaitMs`, whichever comes first. */
function onceBy(done: () => void, maxWaitMs: number): { finish: () => void; called: () => boolean } {
  let called = false;
  const finish = () => {
    if (called) return;
    called = true;
    clearTimeout(deadline);
    done();
  };
  const deadline = setTimeout(finish, maxWaitMs);
  return { finish, called: () => called };
}
