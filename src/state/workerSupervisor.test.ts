import { expose } from "comlink";
import { describe, expect, it } from "vitest";
import { supervise, WorkerDied } from "./workerSupervisor.ts";

interface Api {
  answer(): Promise<number>;
  slow(ticks: number, tick: () => void): Promise<number>;
  ping(): Promise<boolean>;
}

/**
 * A worker stand-in: a MessageChannel with the api exposed on the far end. `behaviour(n)` is the
 * api of the n-th worker spawned (0-based), so a test can make the first one die.
 */
function fakeWorkers(behaviour: (n: number) => Partial<Api>) {
  const ports: MessagePort[] = [];
  const spawn = () => {
    const { port1, port2 } = new MessageChannel();
    expose(behaviour(ports.length), port2);
    ports.push(port1);
    return Object.assign(port1, {
      terminate: () => {
        port1.close();
        port2.close();
      },
    }) as unknown as Worker;
  };
  return { spawn, ports };
}

const never = () => new Promise<number>(() => {});

describe("supervised worker", () => {
  it("replaces a worker that falls silent and reruns the request on the new one", async () => {
    const { spawn } = fakeWorkers((n) => ({ answer: n === 0 ? never : async () => 42 }));
    const w = supervise<Api>(spawn, 50);
    const restarts: string[] = [];
    const v = await w.call((api) => api.answer(), { onRestart: (r) => restarts.push(r) });
    expect(v).toBe(42);
    expect(w.spawned).toBe(2);
    expect(restarts).toEqual(["the worker stopped answering for 0 s"]);
  });

  it("replaces a worker that reports an uncaught error", async () => {
    const { spawn, ports } = fakeWorkers((n) => ({ answer: n === 0 ? never : async () => 7 }));
    const w = supervise<Api>(spawn, 60_000);
    const restarts: string[] = [];
    const pending = w.call((api) => api.answer(), { onRestart: (r) => restarts.push(r) });
    await new Promise((r) => setTimeout(r, 10));
    ports[0]?.dispatchEvent(new Event("error"));
    expect(await pending).toBe(7);
    expect(restarts).toEqual(["the worker failed"]);
  });

  it("gives up, with WorkerDied, when the rerun dies too", async () => {
    const { spawn } = fakeWorkers(() => ({ answer: never }));
    const w = supervise<Api>(spawn, 30);
    await expect(w.call((api) => api.answer())).rejects.toBeInstanceOf(WorkerDied);
    expect(w.spawned).toBe(2);
  });

  it("keeps a slow worker that keeps saying it is alive", async () => {
    const { spawn } = fakeWorkers(() => ({
      slow: async (ticks, tick) => {
        for (let i = 0; i < ticks; i++) {
          await new Promise((r) => setTimeout(r, 20));
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
    const { spawn } = fakeWorkers(() => ({ answer: quiet(150) }));
    const w = supervise<Api>(spawn, 40);
    // 150 ms of silence is past the default 40 ms, within this request's 1 s.
    expect(await w.call((api) => api.answer(), { silenceMs: 1000 })).toBe(150);
    expect(w.spawned).toBe(1);
    const restarts: string[] = [];
    await expect(
      w.call((api) => api.answer(), { silenceMs: 60, onRestart: (r) => restarts.push(r) }),
    ).rejects.toBeInstanceOf(WorkerDied);
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

import { proxy } from "comlink";

describe("supervised worker with a ping", () => {
  it("keeps a worker whose one long request is quiet but which answers pings", async () => {
    const { spawn } = fakeWorkers(() => ({
      // 200 ms without a word, where the watchdog allows 60 ms: the GPU it waits on is slow.
      answer: () => new Promise<number>((r) => setTimeout(() => r(5), 200)),
      ping: async () => true,
    }));
    const w = supervise<Api>(spawn, 60, { ping: (api) => api.ping() });
    expect(await w.call((api) => api.answer())).toBe(5);
    expect(w.spawned).toBe(1);
  });

  it("replaces a worker that answers neither the request nor the pings, and reruns the request", async () => {
    const { spawn } = fakeWorkers((n) => ({
      answer: n === 0 ? never : async () => 9,
      ping: n === 0 ? () => new Promise<boolean>(() => {}) : async () => true,
    }));
    const w = supervise<Api>(spawn, 40, { ping: (api) => api.ping() });
    const restarts: string[] = [];
    expect(await w.call((api) => api.answer(), { onRestart: (r) => restarts.push(r) })).toBe(9);
    expect(w.spawned).toBe(2);
    expect(restarts).toHaveLength(1);
  });
});

function proxyTick(alive: () => void) {
  return proxy(() => alive());
}
