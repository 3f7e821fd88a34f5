/**
 * A worker that is noticed when it dies and replaced. Two ways to die: an uncaught error (the
 * Worker's `error` event) or silence (it was closed, crashed or hung: no reply and no sign of
 * life for `silenceMs` while a request waits). Either way every waiting request is failed with
 * WorkerDied, the worker is terminated and a fresh one spawned, and each request is run once more
 * on it (`onRestart` hears why, so the page can say so). A second death of the same request is
 * reported to its caller.
 *
 * A worker whose requests wait on something else (the GPU) may be quiet for long and still well:
 * give it a `ping` and, while requests wait, the supervisor asks every `silenceMs / 4`; an answer
 * counts as a sign of life for every request on that worker. A closed or hung worker never answers.
 */
import { type Remote, wrap } from "comlink";

export class WorkerDied extends Error {}

/** Long enough for the costliest single request the budgets allow on a slow machine. */
export const DEFAULT_SILENCE_MS = 12_000;

interface Live<Api> {
  worker: Worker;
  api: Remote<Api>;
  /** Requests waiting on this worker: fail(reason) rejects one; the value resets its watchdog. */
  waiting: Map<(reason: string) => void, () => void>;
  pinger?: ReturnType<typeof setInterval>;
}

export interface CallOptions {
  /** Told when the worker died under this request and it is being rerun on a fresh one. */
  onRestart?: (reason: string) => void;
  /**
   * This request's silence limit, for one long synchronous computation that cannot report
   * progress (a recorded run of a large scenario): its budget, not the supervisor's default.
   */
  silenceMs?: number;
}

export interface Supervised<Api> {
  /**
   * Runs `fn` against the worker. `alive()` tells the watchdog the worker is still working (call
   * it from progress callbacks).
   */
  call<T>(fn: (api: Remote<Api>, alive: () => void) => Promise<T>, opts?: CallOptions): Promise<T>;
  /** The running worker, for signals that must not start or wait for one (a kill, a cancel). */
  readonly running: Remote<Api> | null;
  /** Workers started so far (1 + restarts). */
  readonly spawned: number;
  /** Stop for good: waiting requests fail and are not rerun. */
  terminate(): void;
}

export interface SuperviseOptions<Api> {
  /** A cheap call the worker answers whenever its event loop is free (see above). */
  ping?: (api: Remote<Api>) => Promise<unknown>;
}

export function supervise<Api>(
  spawn: () => Worker,
  silenceMs = DEFAULT_SILENCE_MS,
  opts: SuperviseOptions<Api> = {},
): Supervised<Api> {
  let live: Live<Api> | null = null;
  let spawned = 0;
  let terminated = false;

  const kill = (l: Live<Api>, reason: string) => {
    if (live === l) live = null;
    clearInterval(l.pinger);
    l.worker.terminate();
    for (const fail of [...l.waiting.keys()]) fail(reason);
    l.waiting.clear();
  };

  const current = (): Live<Api> => {
    if (live) return live;
    const worker = spawn();
    spawned++;
    const l: Live<Api> = { worker, api: wrap<Api>(worker), waiting: new Map() };
    worker.addEventListener("error", (e) => {
      e.preventDefault();
      kill(l, `the worker failed${e.message ? `: ${e.message}` : ""}`);
    });
    live = l;
    return l;
  };

  const once = <T>(
    fn: (api: Remote<Api>, alive: () => void) => Promise<T>,
    limitMs = silenceMs,
  ): Promise<T> => {
    const l = current();
    return new Promise<T>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const done = () => {
        clearTimeout(timer);
        l.waiting.delete(fail);
        if (l.waiting.size === 0) {
          clearInterval(l.pinger);
          l.pinger = undefined;
        }
      };
      const fail = (reason: string) => {
        done();
        reject(new WorkerDied(reason));
      };
      const alive = () => {
        clearTimeout(timer);
        timer = setTimeout(
          () => kill(l, `the worker stopped answering for ${Math.round(limitMs / 1000)} s`),
          limitMs,
        );
      };
      l.waiting.set(fail, alive);
      alive();
      const ping = opts.ping;
      if (ping && l.pinger === undefined)
        l.pinger = setInterval(() => {
          void ping(l.api).then(
            () => {
              for (const a of l.waiting.values()) a();
            },
            () => {},
          );
        }, silenceMs / 4);
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
        return await once(fn, opts?.silenceMs);
      } catch (e) {
        // Terminated on purpose (a cancelled sweep): nothing to rerun.
        if (!(e instanceof WorkerDied) || terminated) throw e;
        opts?.onRestart?.(e.message);
        return once(fn, opts?.silenceMs);
      }
    },
    get running() {
      return live?.api ?? null;
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
