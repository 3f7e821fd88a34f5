/**
 * The Monte Carlo pool leaves the page its cores while the page holds it (a recorded run computed,
 * then drawn), hands out a small first chunk regardless, and computes on every core once let go;
 * the numbers are the same either way. The pool's workers are stand-ins on MessageChannels that
 * answer each chunk with the engine's own result, when the test lets them.
 */
import { expose } from "comlink";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Chunk } from "../sim/monteCarlo/mcStream.ts";
import { runChunk } from "../sim/monteCarlo/monteCarlo.ts";
import { parseScenario, type Scenario } from "../sim/scenario/index.ts";

const fake = vi.hoisted(() => ({
  /** Chunks asked for and not yet answered, oldest first. */
  pending: [] as { chunk: Chunk; answer: () => void }[],
}));

vi.mock("./sweepPool.ts", () => ({ poolSize: () => 2 }));
vi.mock("./simClient.ts", () => ({
  spawnSimWorker: () => {
    const { port1, port2 } = new MessageChannel();
    expose(
      {
        clusterMonteCarloChunk: (s: Scenario, chunk: Chunk) =>
          new Promise((resolve) => fake.pending.push({ chunk, answer: () => resolve(runChunk(s, chunk)) })),
        ping: () => true,
      },
      port2,
    );
    return Object.assign(port1, { terminate: () => port1.close() }) as unknown as Worker;
  },
}));

const { holdForPage, mcPoolWidth, passesHold, streamMonteCarlo } = await import("./mcPool.ts");
const { beginPageWork } = await import("./pageWork.ts");

const headline = parseScenario({});
/** A million expected failures a run: one run is far more than a small first chunk. */
const huge = parseScenario({ failures: { perHostDay: 10 }, training: { days: 8 } });
const settings = { precision: 0, cap: 40 };

/** Waits a few message round trips: long enough for any chunk the pool would hand out to be asked for. */
const settle = () => new Promise((r) => setTimeout(r, 30));

async function answerAll(): Promise<void> {
  while (fake.pending.length > 0) {
    for (const p of fake.pending.splice(0)) p.answer();
    await settle();
  }
}

const cleanups: (() => void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) c();
  await answerAll();
});

describe("the Monte Carlo pool and the page", () => {
  it("computes on every core, or, held, on those beside the recorded run's and the page's", () => {
    expect(mcPoolWidth(2, false)).toBe(2);
    expect(mcPoolWidth(2, true)).toBe(0);
    expect(mcPoolWidth(8, true)).toBe(6);
    expect(passesHold(0, 300)).toBe(true);
    expect(passesHold(1, 300)).toBe(false);
    expect(passesHold(0, 1_000_000)).toBe(false);
  });

  it("hands a chunk to each of its two workers when nothing holds it", async () => {
    const job = streamMonteCarlo(headline, settings, 0, { onMerged() {}, onError() {} });
    cleanups.push(() => job.cancel());
    await vi.waitFor(() => expect(fake.pending.length).toBe(2));
  });

  it("held, hands out only a small first chunk, then every core once let go, with the same numbers", async () => {
    const release = holdForPage();
    cleanups.push(release);
    const job = streamMonteCarlo(headline, settings, 0, { onMerged() {}, onError() {} });
    cleanups.push(() => job.cancel());
    await vi.waitFor(() => expect(fake.pending.length).toBe(1));
    expect(fake.pending[0]?.chunk).toEqual({ start: 0, count: 1 });
    await answerAll();
    await settle();
    expect(job.stream.runs).toBe(1);
    expect(fake.pending.length).toBe(0);
    release();
    await vi.waitFor(() => expect(fake.pending.length).toBe(2));
    await answerAll();
    await vi.waitFor(() => expect(job.stream.stop).not.toBeNull());
    // The same runs as a pool that was never held: every run is the engine's at its seed.
    const free = streamMonteCarlo(headline, settings, 0, { onMerged() {}, onError() {} });
    await vi.waitFor(() => expect(fake.pending.length).toBe(2));
    await answerAll();
    await vi.waitFor(() => expect(free.stream.stop).not.toBeNull());
    expect(job.stream.snapshot()).toEqual(free.stream.snapshot());
  });

  it("held, hands out nothing for a scenario whose single run is large", async () => {
    const release = holdForPage();
    cleanups.push(release);
    const job = streamMonteCarlo(huge, settings, 0, { onMerged() {}, onError() {} });
    cleanups.push(() => job.cancel());
    await settle();
    expect(fake.pending.length).toBe(0);
    release();
    await vi.waitFor(() => expect(fake.pending.length).toBe(2));
    job.cancel();
  });

  it("stays held while any holder has not let go; letting go twice counts once", async () => {
    const a = holdForPage();
    const b = holdForPage();
    cleanups.push(a, b);
    const job = streamMonteCarlo(huge, settings, 0, { onMerged() {}, onError() {} });
    cleanups.push(() => job.cancel());
    a();
    a();
    await settle();
    expect(fake.pending.length).toBe(0);
    b();
    await vi.waitFor(() => expect(fake.pending.length).toBe(2));
    job.cancel();
  });

  it("computes on fewer cores while the page has sliced work open (a timeline frame drawn in slices)", async () => {
    const end = beginPageWork();
    cleanups.push(end);
    const job = streamMonteCarlo(huge, settings, 0, { onMerged() {}, onError() {} });
    cleanups.push(() => job.cancel());
    await settle();
    expect(fake.pending.length).toBe(0);
    end();
    await vi.waitFor(() => expect(fake.pending.length).toBe(2));
    job.cancel();
  });
});
