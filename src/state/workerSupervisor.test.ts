import { expose, proxy } from "comlink";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { until, useWatchdogClock } from "../testing/watchdogClock.ts";
import { supervise, WorkerDied } from "./workerSupervisor.ts";

interface Api {
  answer(): Promise<number>;
  slow(ticks: number, tick: () => void): Promise<number>;
  ping(): Promise<boolean>;
}

/**
 * A worker stand-in: a MessageChannel with the api exposed on the far end. `behaviour(n)` is the
 * api of the n-th worker spawned (0-based), so a test can make the first one die. `answers[n]`
 * counts the n-th worker's `answer` calls received (the request reached it).
 */
function fakeWorkers(behaviour: (n: number) => Partial<Api>) {
  const ports: MessagePort[] = [];
  const answers: number[] = [];
  const spawn = () => {
    const n = ports.length;
    const { port1, port2 } = new MessageChannel();
    const api = behaviour(n);
    answers[n] = 0;
    const answer = api.answer;
    expose(
      answer
        ? {
            ...api,
            answer: () => {
              answers[n] = (answers[n] ?? 0) + 1;
              return answer();
            },
          }
        : api,
      port2,
    );
    ports.push(port1);
    return Object.assign(port1, {
      terminate: () => {
        port1.close();
        port2.close();
      },
    }) as unknown as Worker;
  };
  return { spawn, ports, answers };
}

const never = () => new Promise<number>(() => {});

// The watchdog's clock moves only when a test moves it (../testing/watchdogClock.ts), so a busy
// machine cannot make a healthy worker look silent, nor spare a silent one.
beforeEach(useWatchdogClock);
afterEach(() => {
  vi.useRealTimers();
});

describe("supervised worker", () => {
  it("replaces a worker that falls silent and reruns the request on the new one", async () => {
    const { spawn, answers } = fakeWorkers((n) => ({ answer: n === 0 ? never : async () => 42 }));
    const w = supervise<Api>(spawn, 50);
    const restarts: string[] = [];
    const pending = w.call((api) => api.answer(), { onRestart: (r) => restarts.push(r) });
    await until(() => answers[0] === 1);
    await vi.advanceTimersByTimeAsync(50);
    expect(await pending).toBe(42);
    expect(w.spawned).toBe(2);
    expect(restarts).toEqual(["the worker stopped answering for 0 s"]);
  });

  it("replaces a worker that reports an uncaught error", async () => {
    const { spawn, ports, answers } = fakeWorkers((n) => ({ answer: n === 0 ? never : async () => 7 }));
    const w = supervise<Api>(spawn, 60_000);
    const restarts: string[] = [];
    const pending = w.call((api) => api.answer(), { onRestart: (r) => restarts.push(r) });
    await until(() => answers[0] === 1);
    ports[0]?.dispatchEvent(new Event("error"));
    expect(await pending).toBe(7);
    expect(restarts).toEqual(["the worker failed"]);
  });

  it("gives up, with WorkerDied, when the rerun dies too", async () => {
    const { spawn, answers } = fakeWorkers(() => ({ answer: never }));
    const w = supervise<Api>(spawn, 30);
    const pending = w.call((api) => api.answer());
    const died = expect(pending).rejects.toBeInstanceOf(WorkerDied);
    await until(() => answers[0] === 1);
    await vi.advanceTimersByTimeAsync(30);
    await until(() => answers[1] === 1);
    await vi.advanceTimersByTimeAsync(30);
    await died;
    expect(w.spawned).toBe(2);
  });

  it("keeps a slow worker that keeps saying it is alive", async () => {
    const { spawn } = fakeWorkers(() => ({
      slow: async (ticks, tick) => {
        for (let i = 0; i < ticks; i++) {
          // 20 ms of the watchdog's clock pass in the worker, then it says it is alive.
          await vi.advanceTimersByTimeAsync(20);
          await tick();
        }
        return ticks;
      },
    }));
    const w = supervise<Api>(spawn, 60);
    // 10 × 20 ms is well past the 60 ms watchdog, but each tick resets it.
    const v = await w.call((api, alive) => api.slow(10, proxyTick(alive)));
    expect(v).toBe(10);
    expect(w.spawned).toBe(1);
  });

  it("gives one long silent request its own limit, and still replaces a worker past it", async () => {
    const quiet = (ms: number) => async () => {
      await new Promise((r) => setTimeout(r, ms));
      return ms;
    };
    const { spawn, answers } = fakeWorkers(() => ({ answer: quiet(150) }));
    const w = supervise<Api>(spawn, 40);
    // 150 ms of silence is past the default 40 ms, within this request's 1 s.
    const long = w.call((api) => api.answer(), { silenceMs: 1000 });
    await until(() => answers[0] === 1);
    await vi.advanceTimersByTimeAsync(150);
    expect(await long).toBe(150);
    expect(w.spawned).toBe(1);
    const restarts: string[] = [];
    const short = w.call((api) => api.answer(), { silenceMs: 60, onRestart: (r) => restarts.push(r) });
    const died = expect(short).rejects.toBeInstanceOf(WorkerDied);
    await until(() => answers[0] === 2);
    await vi.advanceTimersByTimeAsync(60);
    await until(() => answers[1] === 1);
    await vi.advanceTimersByTimeAsync(60);
    await died;
    expect(w.spawned).toBe(2); // the first worker, and the one the rerun died on
    expect(restarts).toHaveLength(1);
  });

  it("passes the worker's own errors through without restarting it", async () => {
    const { spawn } = fakeWorkers(() => ({
      answer: async () => {
        throw new Error("bad scenario");
      },
    }));
    const w = supervise<Api>(spawn, 1000);
    await expect(w.call((api) => api.answer())).rejects.toThrow("bad scenario");
    expect(w.spawned).toBe(1);
  });
});

describe("supervised worker with a ping", () => {
  it("keeps a worker whose one long request is quiet but which answers pings", async () => {
    let release: (v: number) => void = () => {};
    const { spawn, answers } = fakeWorkers(() => ({
      // Quiet until released, where the watchdog allows 60 ms: the GPU it waits on is slow.
      answer: () => new Promise<number>((r) => (release = r)),
      ping: async () => true,
    }));
    // Pongs counted as they reach the supervisor, which treats each as a sign of life.
    let pongs = 0;
    const w = supervise<Api>(spawn, 60, {
      ping: async (api) => {
        await api.ping();
        pongs++;
      },
    });
    const pending = w.call((api) => api.answer());
    await until(() => answers[0] === 1);
    // 14 pings, one each 15 ms: 210 ms without a word from the request, each ping answered.
    for (let i = 1; i <= 14; i++) {
      await vi.advanceTimersByTimeAsync(15);
      // (A replaced worker is not waited for: the count of workers below says so.)
      await until(() => pongs >= i || w.spawned > 1);
    }
    release(5);
    expect(await pending).toBe(5);
    expect(w.spawned).toBe(1);
  });

  it("replaces a worker that answers neither the request nor the pings, and reruns the request", async () => {
    const { spawn, answers } = fakeWorkers((n) => ({
      answer: n === 0 ? never : async () => 9,
      ping: n === 0 ? () => new Promise<boolean>(() => {}) : async () => true,
    }));
    const w = supervise<Api>(spawn, 40, { ping: (api) => api.ping() });
    const restarts: string[] = [];
    const pending = w.call((api) => api.answer(), { onRestart: (r) => restarts.push(r) });
    await until(() => answers[0] === 1);
    await vi.advanceTimersByTimeAsync(40);
    expect(await pending).toBe(9);
    expect(w.spawned).toBe(2);
    expect(restarts).toHaveLength(1);
  });
});

function proxyTick(alive: () => void) {
  return proxy(() => alive());
}
