import { describe, expect, it } from "vitest";
import { closedFormsOf } from "../policies/policyForms.ts";
import { parseScenario, type Scenario } from "../scenario/index.ts";
import { ettrDifference } from "./ettrDifference.ts";
import { chunkAt, gridEndAfter, type McSettings, McStream, MIN_RUNS, meanAndHalf, Z95 } from "./mcStream.ts";
import { monteCarlo, runChunk } from "./monteCarlo.ts";

/** A small cluster: fast runs with a real spread of ETTR between seeds. */
const SMALL = parseScenario({ cluster: { gpus: 4096, replicas: 8 }, training: { days: 3 }, seed: 11 });

/** A deterministic shuffle (seeded LCG), so a failing order can be replayed. */
function shuffled<T>(xs: T[], seed: number): T[] {
  const out = [...xs];
  let x = seed >>> 0;
  for (let i = out.length - 1; i > 0; i--) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    const j = x % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * Drives a stream as a pool of `workers` would: each free worker takes the next chunk; the order
 * in which their answers come back is shuffled by `orderSeed`.
 */
function drive(s: Scenario, settings: McSettings, workers: number, orderSeed: number): McStream {
  const stream = new McStream(s, settings);
  let round = 0;
  for (;;) {
    const batch: { index: number; runs: ReturnType<typeof runChunk> }[] = [];
    for (let w = 0; w < workers; w++) {
      const job = stream.next();
      if (!job) break;
      batch.push({ index: job.index, runs: runChunk(s, job.chunk) });
    }
    if (batch.length === 0) break;
    for (const b of shuffled(batch, orderSeed + round++)) stream.put(b.index, b.runs);
    if (stream.stop) break;
  }
  return stream;
}

describe("the streaming Monte Carlo", () => {
  it("gives, for the seeds it ran, exactly the one-worker Monte Carlo of those seeds, whatever the pool", () => {
    const settings = { precision: 0, cap: 137 };
    const reference = monteCarlo(SMALL, 137);
    for (const workers of [1, 2, 3, 8]) {
      const stream = drive(SMALL, settings, workers, workers * 7);
      expect(stream.stop).toBe("cap");
      expect(stream.runs).toBe(137);
      expect(stream.result(closedFormsOf(SMALL))).toEqual(reference);
    }
  });

  it("stops at the same run count, with the same numbers, whatever the pool size and answer order", () => {
    // ±0.3 point: reached after MIN_RUNS on this cluster, but not at once.
    const settings = { precision: 0.003, cap: 2000 };
    const one = drive(SMALL, settings, 1, 1);
    expect(one.stop).toBe("precision");
    expect(one.runs).toBeGreaterThanOrEqual(MIN_RUNS);
    for (const workers of [2, 5]) {
      const other = drive(SMALL, settings, workers, 99);
      expect(other.runs).toBe(one.runs);
      expect(other.snapshot()).toEqual(one.snapshot());
      expect(other.result(closedFormsOf(SMALL))).toEqual(monteCarlo(SMALL, one.runs));
    }
  });

  it("stops where every policy's 95 % half-width first reaches the precision, at a chunk end", () => {
    const settings = { precision: 0.003, cap: 2000 };
    const stream = drive(SMALL, settings, 2, 3);
    const snap = stream.snapshot();
    for (const e of Object.values(snap.ettr)) expect(e!.half).toBeLessThanOrEqual(settings.precision);
    // One chunk fewer did not reach it (or had fewer than the minimum runs).
    const ends: number[] = [];
    for (let k = 0, c = chunkAt(SMALL, 2000, 0); c.count > 0; c = chunkAt(SMALL, 2000, ++k))
      ends.push(c.start + c.count);
    const before = ends[ends.indexOf(snap.n) - 1]!;
    const shorter = drive(SMALL, { precision: 0, cap: before }, 1, 0).snapshot();
    const reached =
      before >= MIN_RUNS && Object.values(shorter.ettr).every((e) => e!.half <= settings.precision);
    expect(reached).toBe(false);
  });

  it("reports a cap it reached before the precision, and never runs past it", () => {
    const stream = drive(SMALL, { precision: 0.0001, cap: 40 }, 2, 5);
    expect(stream.stop).toBe("cap");
    expect(stream.runs).toBe(40);
    expect(stream.next()).toBeNull();
  });

  it("shows a first band after one small chunk: a prefix of the final band's seeds", () => {
    const stream = new McStream(SMALL, { precision: 0.005, cap: 2000 });
    const first = stream.next();
    expect(first?.index).toBe(0);
    expect(first?.chunk.count).toBeGreaterThan(0);
    expect(first?.chunk.count).toBeLessThanOrEqual(4);
    stream.put(0, runChunk(SMALL, first!.chunk));
    const snap = stream.snapshot();
    expect(snap.n).toBe(first!.chunk.count);
    expect(snap.ettr.ftHsdp?.mean).toBeCloseTo(monteCarlo(SMALL, snap.n).ftHsdp!.ettr.mean, 12);
  });

  it("refuses a chunk of the wrong size and ignores one that arrives after the stop", () => {
    const stream = new McStream(SMALL, { precision: 0, cap: 10 });
    const job = stream.next()!;
    expect(() => stream.put(job.index, [])).toThrow(RangeError);
    const jobs = [job];
    for (let j = stream.next(); j; j = stream.next()) jobs.push(j);
    expect(jobs.length).toBeGreaterThan(1);
    // Answers in reverse: nothing merges until chunk 0 is in, then all of them, up to the cap.
    for (const j of jobs.slice(1).reverse())
      expect(stream.put(j.index, runChunk(SMALL, j.chunk))).toBe(false);
    expect(stream.put(0, runChunk(SMALL, job.chunk))).toBe(true);
    expect(stream.stop).toBe("cap");
    expect(stream.put(0, runChunk(SMALL, job.chunk))).toBe(false);
    expect(stream.runs).toBe(10);
  });
});

describe("intervals", () => {
  it("is mean ± 1.96·sd/√n with the sample standard deviation", () => {
    const { mean, half } = meanAndHalf(new Float64Array([1, 2, 3, 4]));
    expect(mean).toBe(2.5);
    expect(half).toBeCloseTo((Z95 * Math.sqrt(5 / 3)) / 2, 12);
  });

  it("pairs a difference by seed over the runs both have", () => {
    const a = new Float64Array([0.8, 0.82, 0.79]);
    const b = new Float64Array([0.7, 0.71]);
    const d = ettrDifference({ samples: a, seed: 5 }, { samples: b, seed: 5 })!;
    expect(d.kind).toBe("paired");
    if (d.kind !== "paired") return;
    expect(d.n).toBe(2);
    expect(d.firstSeed).toBe(5);
    expect(d.mean).toBeCloseTo(0.105, 12);
    // Differences 0.10 and 0.11: sd 0.00707…
    expect(d.half).toBeCloseTo((Z95 * Math.sqrt(0.00005)) / Math.sqrt(2), 12);
    // The two means over the paired runs, whose difference the mean is.
    expect(d.aMean - d.bMean).toBeCloseTo(d.mean, 12);
    expect(ettrDifference({ samples: a, seed: 5 }, { samples: new Float64Array(), seed: 5 })).toBeNull();
  });

  it("pairs runs of the same seed when the baseline's seed differs, not runs of the same index", () => {
    // Run i of each is seed (seed + i): a's seeds 10..13, b's 12..16; seeds 12 and 13 are both.
    const a = new Float64Array([0.5, 0.6, 0.7, 0.8]);
    const b = new Float64Array([0.65, 0.75, 0.1, 0.1, 0.1]);
    const d = ettrDifference({ samples: a, seed: 10 }, { samples: b, seed: 12 })!;
    expect(d).toMatchObject({ kind: "paired", n: 2, firstSeed: 12 });
    if (d.kind !== "paired") return;
    // Seed 12: 0.7 − 0.65; seed 13: 0.8 − 0.75. By index it would be 0.5 − 0.65, … (negative).
    expect(d.mean).toBeCloseTo(0.05, 12);
    expect(d.aMean).toBeCloseTo(0.75, 12);
    expect(d.bMean).toBeCloseTo(0.7, 12);
    // The other way round, and across the 32-bit wrap of seeds.
    const back = ettrDifference({ samples: b, seed: 12 }, { samples: a, seed: 10 })!;
    expect(back).toMatchObject({ kind: "paired", n: 2, firstSeed: 12 });
    expect(back.mean).toBeCloseTo(-0.05, 12);
    const wrap = ettrDifference({ samples: a, seed: 0xffff_ffff }, { samples: b, seed: 1 })!;
    // a's seeds 2³²−1, 0, 1, 2: seeds 1 and 2 are b's runs 0 and 1.
    expect(wrap).toMatchObject({ kind: "paired", n: 2, firstSeed: 1 });
  });

  it("compares Monte Carlos that share no seed unpaired: the difference of their means", () => {
    const a = new Float64Array([0.8, 0.82, 0.79]);
    const b = new Float64Array([0.7, 0.71, 0.69, 0.72]);
    const d = ettrDifference({ samples: a, seed: 1 }, { samples: b, seed: 1000 })!;
    expect(d.kind).toBe("unpaired");
    const ma = meanAndHalf(a);
    const mb = meanAndHalf(b);
    expect(d.mean).toBeCloseTo(ma.mean - mb.mean, 12);
    expect(d.half).toBeCloseTo(Math.sqrt(ma.half ** 2 + mb.half ** 2), 12);
  });
});

describe("new settings keep the runs", () => {
  /** Runs a stream to its stop, one chunk at a time. */
  function finish(stream: McStream): McStream {
    for (let j = stream.next(); j; j = stream.next()) {
      stream.put(j.index, runChunk(stream.scenario, j.chunk));
      if (stream.stop) break;
    }
    return stream;
  }

  it("a looser precision keeps every run a tighter one computed", () => {
    const tight = finish(new McStream(SMALL, { precision: 0, cap: 300 }));
    expect(tight.runs).toBe(300);
    const loose = new McStream(SMALL, { precision: 0.5, cap: 2000 }, tight);
    // A fresh stream would stop at MIN_RUNS (or its first chunk end past it); this one keeps 300.
    expect(finish(new McStream(SMALL, { precision: 0.5, cap: 2000 })).runs).toBeLessThan(300);
    expect(loose.stop).toBe("precision");
    expect(loose.runs).toBe(300);
    expect(loose.snapshot().kept).toBe(300);
    expect(loose.next()).toBeNull();
    expect(loose.result(closedFormsOf(SMALL))).toEqual(monteCarlo(SMALL, 300));
  });

  it("a tighter precision or a higher cap goes on from the runs it has, to the same result", () => {
    const first = finish(new McStream(SMALL, { precision: 0, cap: 37 }));
    const more = new McStream(SMALL, { precision: 0, cap: 150 }, first);
    const job = more.next()!;
    expect(job.chunk.start).toBe(37);
    more.put(job.index, runChunk(SMALL, job.chunk));
    finish(more);
    expect(more.runs).toBe(150);
    expect(more.result(closedFormsOf(SMALL))).toEqual(monteCarlo(SMALL, 150));
  });

  it("a lower cap keeps the runs up to it", () => {
    const first = finish(new McStream(SMALL, { precision: 0, cap: 120 }));
    const fewer = new McStream(SMALL, { precision: 0, cap: 50 }, first);
    expect(fewer.runs).toBe(50);
    expect(fewer.stop).toBe("cap");
    expect(fewer.result(closedFormsOf(SMALL))).toEqual(monteCarlo(SMALL, 50));
  });
});

describe("chunks", () => {
  it("cover seeds 0.. cap−1 once each, in order: 1, 2, 4, … runs, then a fixed size", () => {
    for (const [s, cap] of [
      [SMALL, 137],
      [SMALL, 1],
      [parseScenario({}), 2000],
      [parseScenario({ cluster: { gpus: 786_432 }, training: { days: 60 } }), 30],
    ] as const) {
      let next = 0;
      const sizes: number[] = [];
      for (let k = 0, c = chunkAt(s, cap, 0); c.count > 0; c = chunkAt(s, cap, ++k)) {
        expect(c.start).toBe(next);
        next += c.count;
        sizes.push(c.count);
      }
      expect(next).toBe(cap);
      // Handed out from any run, a chunk ends where the grid's does.
      for (let k = 0, c = chunkAt(s, cap, 0); c.count > 0; c = chunkAt(s, cap, ++k))
        if (c.start + c.count < cap) expect(gridEndAfter(s, c.start)).toBe(c.start + c.count);
      expect(sizes[0]).toBe(1);
      // Doubling until the full size, then the full size (the last one cut at the cap).
      const full = Math.max(...sizes);
      for (let i = 1; i < sizes.length - 1; i++) {
        expect(sizes[i] === 2 * sizes[i - 1]! || sizes[i] === full).toBe(true);
        if (sizes[i - 1] === full) expect(sizes[i]).toBe(full);
      }
    }
  });
});
