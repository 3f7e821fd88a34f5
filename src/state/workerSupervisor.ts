/**
 * A worker that is noticed when it dies and replaced. Two ways to die: an uncaught error (the
 * Worker's `error` event) or silence (it was closed, crashed or hung: no reply and no sign of
 * life for `silenceMs` while a request waits). Either way every waiting request is failed with
 * WorkerDied, the worker is terminated and a fresh one spawned, and each request is run once more
 * on it (`onRestart` hears why, so the page can say so). A second death of the same request is
 * reported to its caller.
 */
import { type Remote, wrap } from "comlink";

export class WorkerDied extends Error {}

/** Long enough for the costliest single request the budgets allow on a slow machine. */
export const DEFAULT_SILENCE_MS = 12_000;

interface Live<Api> {
  worker: Worker;
  api: Remote<Api>;
  /** Requests waiting on this worker: fail(reason) rejects one. */
  waiting: Set<(reason: string) => void>;
}

export interface CallOptions {
  /** Told when the worker died under this request and it is being rerun on a fresh one. */
  onRestart?: (reason: string) => void;
}

export interface Supervised<Api> {
  /**
   * Runs `fn` against the worker. `alive()` tells the watchdog the worker is still working (call
   * it from progress callbacks).
   */
  call<T>(fn: (api: Remote<Api>, alive: () => void) => Promise<T>, opts?: CallOptions): Promise<T>;
  /** Workers started so far (1 + restarts). */
  readonly spawned: number;
  /** Stop for good: waiting requests fail and are not rerun. */
  terminate(): void;
}

export function supervise<Api>(spawn: () => Worker, silenceMs = DEFAULT_SILENCE_MS): Supervised<Api> {
  let live: Live<Api> | null = null;
  let spawned = 0;
  let terminated = false;

  const kill = (l: Live<Api>, reason: string) => {
    if (live === l) live = null;
    l.worker.terminate();
    for (const fail of [...l.waiting]) fail(reason);
    l.waiting.clear();
  };

  const current = (): Live<Api> => {
    if (live) return live;
    const worker = spawn();
    spawned++;
    const l: Live<Api> = { worker, api: wrap<Api>(worker), waiting: new Set() };
    worker.addEventListener("error", (e) => {
      e.preventDefault();
      kill(l, `the worker failed${e.message ? `: ${e.message}` : ""}`);
    });
    live = l;
    return l;
  };

  const once = <T>(fn: (api: Remote<Api>, alive: () => void) => Promise<T>): Promise<T> => {
    const l = current();
    return new Promise<T>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const done = () => {
        clearTimeout(timer);
        l.waiting.delete(fail);
      };
      const fail = (reason: string) => {
        done();
        reject(new WorkerDied(reason));
      };
      const alive = () => {
        clearTimeout(timer);
        timer = setTimeout(
          () => kill(l, `the worker stopped answering for ${Math.round(silenceMs / 1000)} s`),
          silenceMs,
        );
      };
      l.waiting.add(fail);
      alive();
      fn(l.api, alive).then(
        (v) => {
          done();
          resolve(v);
        },
        (e: unknown) => {
          done();
          reject(e);
        },
      );
    });
  };

  return {
    async call(fn, opts) {
      try {
        return await once(fn);
      } catch (e) {
        // Terminated on purpose (a cancelled sweep): nothing to rerun.
        if (!(e instanceof WorkerDied) || terminated) throw e;
        opts?.onRestart?.(e.message);
        return once(fn);
      }
    },
    get spawned() {
      return spawned;
    },
    terminate() {
      terminated = true;
      if (live) kill(live, "terminated");
    },
  };
}
