/**
 * The schedules are checked symbolically: every element of every buffer carries the multiset of
 * inputs summed into it (or "poison" if nothing has written it yet). A schedule is right when each
 * expected output holds each contributor exactly once and nothing else, and a step is safe to run
 * in parallel when no operation in it writes what another in the same step reads or writes.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ALGORITHMS, buildSchedule, busBwFactor } from "./collectives.ts";
import { ownedChunk, ringAllReduce, ringReduceScatter } from "./ringSchedule.ts";
import type { Algorithm, Schedule } from "./schedule.ts";
import { hopsOf, trafficBytes } from "./schedule.ts";

/**
 * Per device: for each element, how many times each device's input went into it (flat,
 * count × devices), whether anything wrote it yet, and the product of scales applied.
 */
interface SymBuffer {
  counts: Int32Array;
  written: Uint8Array;
  scale: Float64Array;
}

function checkParallelSafe(s: Schedule, stepIndex: number) {
  const step = s.steps[stepIndex];
  if (!step) return;
  step.ops.forEach((op, i) => {
    const lo = op.range.offset;
    const hi = lo + op.range.length;
    step.ops.forEach((other, j) => {
      if (i === j) return;
      const olo = other.range.offset;
      const overlaps = lo < olo + other.range.length && olo < hi;
      const readsMine =
        other.kind === "sum" && other.sources.some((x) => x.rank === op.dst && x.buf === "out");
      if (overlaps && (other.dst === op.dst || readsMine)) {
        throw new Error(`${s.algorithm} step ${stepIndex}: ops ${i} and ${j} overlap on device ${op.dst}`);
      }
    });
  });
}

function runSymbolic(s: Schedule, devices: number): SymBuffer[] {
  const n = s.count;
  const out: SymBuffer[] = Array.from({ length: devices }, () => ({
    counts: new Int32Array(n * devices),
    written: new Uint8Array(n),
    scale: new Float64Array(n).fill(1),
  }));
  const buf = (rank: number) => {
    const b = out[rank];
    if (!b) throw new Error(`no device ${rank}`);
    return b;
  };
  s.steps.forEach((step, k) => {
    checkParallelSafe(s, k);
    // Compute every operation from the state before the step, then commit: parallel semantics.
    const results = step.ops.map((op) => {
      const { offset, length } = op.range;
      const counts = new Int32Array(length * devices);
      const written = new Uint8Array(length).fill(1);
      const scale = new Float64Array(length).fill(1);
      const dst = buf(op.dst);
      if (op.kind === "scale") {
        counts.set(dst.counts.subarray(offset * devices, (offset + length) * devices));
        for (let i = 0; i < length; i++) {
          written[i] = dst.written[offset + i] ?? 0;
          scale[i] = (dst.scale[offset + i] ?? 1) * op.factor;
        }
        return { counts, written, scale };
      }
      for (const src of op.sources) {
        if (src.buf === "in") {
          for (let i = 0; i < length; i++)
            counts[i * devices + src.rank] = (counts[i * devices + src.rank] ?? 0) + 1;
          continue;
        }
        const from = buf(src.rank);
        for (let i = 0; i < length; i++) {
          if (!from.written[offset + i]) written[i] = 0;
          for (let d = 0; d < devices; d++) {
            const k = i * devices + d;
            counts[k] = (counts[k] ?? 0) + (from.counts[(offset + i) * devices + d] ?? 0);
          }
        }
      }
      return { counts, written, scale };
    });
    step.ops.forEach((op, j) => {
      const r = results[j];
      if (!r) return;
      const dst = buf(op.dst);
      dst.counts.set(r.counts, op.range.offset * devices);
      dst.written.set(r.written, op.range.offset);
      dst.scale.set(r.scale, op.range.offset);
    });
  });
  return out;
}

function expectCorrect(s: Schedule, devices: number) {
  const out = runSymbolic(s, devices);
  for (const e of s.expected) {
    const b = out[e.rank];
    if (!b) throw new Error(`no device ${e.rank}`);
    for (let i = e.range.offset; i < e.range.offset + e.range.length; i++) {
      const where = `(${s.algorithm}, n=${s.ranks.length}, count=${s.count}) device ${e.rank} element ${i}`;
      if (!b.written[i]) throw new Error(`${where}: never written, or computed from unwritten data`);
      for (let d = 0; d < devices; d++) {
        const want = e.contributors.includes(d) ? 1 : 0;
        const got = b.counts[i * devices + d];
        if (got !== want) throw new Error(`${where}: input of ${d} counted ${got} times, want ${want}`);
      }
      if (Math.abs((b.scale[i] ?? 0) - e.scale) > 1e-12)
        throw new Error(`${where}: scaled by ${b.scale[i]}, want ${e.scale}`);
    }
  }
}

function expectedCovers(s: Schedule): boolean {
  if (s.collective === "reduce-scatter") {
    const covered = s.expected.reduce((a, e) => a + e.range.length, 0);
    return covered === s.count;
  }
  return s.ranks.every(
    (r) => s.expected.filter((e) => e.rank === r).reduce((a, e) => a + e.range.length, 0) === s.count,
  );
}

// Small sizes hit empty and ragged chunks; larger ones many blocks per chunk. The symbolic run
// costs count × n² per step, so sizes stay modest.
const sizes = fc.oneof(fc.integer({ min: 0, max: 1500 }), fc.integer({ min: 1500, max: 12_000 }));

describe("schedules", () => {
  for (const algorithm of ALGORITHMS) {
    it(`${algorithm}: every input reaches every expected output exactly once, for any n in 2..16 and any size`, () => {
      fc.assert(
        fc.property(fc.integer({ min: 2, max: 16 }), sizes, (n, count) => {
          const ranks = Array.from({ length: n }, (_, i) => i);
          const s = buildSchedule(algorithm, ranks, count);
          expectCorrect(s, n);
          expect(expectedCovers(s)).toBe(true);
        }),
        { numRuns: 30 },
      );
    }, 60_000);
  }

  it("AVG divides the sum by the number of devices, once per element", () => {
    for (const algorithm of ["ring", "halving-doubling", "one-shot"] as Algorithm[]) {
      const s = buildSchedule(algorithm, [0, 1, 2, 3, 4], 1000, "avg");
      expect(s.expected.every((e) => e.scale === 0.2)).toBe(true);
      expectCorrect(s, 5);
    }
    expect(() => buildSchedule("all-gather", [0, 1], 10, "avg")).toThrow(/all-reduce/);
  });

  it("re-forms over any subset of devices in any order (the ring after a fault)", () => {
    fc.assert(
      fc.property(
        fc.shuffledSubarray([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], { minLength: 2 }),
        fc.integer({ min: 1, max: 5000 }),
        (ring, count) => {
          const s = buildSchedule("ring", ring, count, "avg");
          expectCorrect(s, 10);
          for (const step of s.steps.slice(0, -1)) {
            for (const op of step.ops)
              for (const hop of hopsOf(op))
                expect(ring[(ring.indexOf(hop.from) + 1) % ring.length]).toBe(hop.to);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("ring schedule", () => {
  it("has 2(n−1) steps, and in each every position sends one chunk to its successor", () => {
    for (let n = 2; n <= 16; n++) {
      const ranks = Array.from({ length: n }, (_, i) => i);
      const s = ringAllReduce(ranks, 64 * n * 3);
      expect(s.steps).toHaveLength(2 * (n - 1));
      for (const step of s.steps) {
        expect(step.ops).toHaveLength(n);
        const senders = step.ops.flatMap((op) => hopsOf(op).map((h) => h.from));
        expect(new Set(senders).size).toBe(n);
      }
    }
  });

  it("reduces every chunk exactly once per hop: chunk c is summed n−1 times, ending at position c−1", () => {
    for (let n = 2; n <= 16; n++) {
      const ranks = Array.from({ length: n }, (_, i) => i);
      const s = ringReduceScatter(ranks, 64 * n);
      const reductions = new Map<number, number[]>();
      for (const step of s.steps) {
        for (const op of step.ops) {
          if (op.kind !== "sum" || op.chunk === undefined) continue;
          reductions.set(op.chunk, [...(reductions.get(op.chunk) ?? []), op.dst]);
        }
      }
      for (let c = 0; c < n; c++) {
        const dsts = reductions.get(c) ?? [];
        expect(dsts).toHaveLength(n - 1);
        expect(new Set(dsts).size).toBe(n - 1);
        expect(ownedChunk(dsts.at(-1) ?? -1, n)).toBe(c);
      }
    }
  });

  it("moves the bytes the ring formula says: 5(n−1)·S read+written over all devices", () => {
    const n = 8;
    const count = 64 * n * 10;
    const s = ringAllReduce([...Array(n).keys()], count);
    // Reduce-scatter: n(n−1) chunk ops reading 2, writing 1; all-gather: reading 1, writing 1.
    expect(trafficBytes(s)).toBe(5 * (n - 1) * count * 4);
  });
});

describe("halving-doubling schedule", () => {
  it("takes 2·log2 n steps on a power of two, two more otherwise", () => {
    expect(buildSchedule("halving-doubling", [...Array(8).keys()], 4096).steps).toHaveLength(6);
    expect(buildSchedule("halving-doubling", [...Array(6).keys()], 4096).steps.map((s) => s.phase)).toEqual([
      "fold",
      "reduce-scatter",
      "reduce-scatter",
      "all-gather",
      "all-gather",
      "unfold",
    ]);
  });

  it("halves the range each device reduces, then doubles what it holds", () => {
    const count = 64 * 8;
    const s = buildSchedule("halving-doubling", [...Array(8).keys()], count);
    const lengths = s.steps.map((st) => st.ops[0]?.range.length);
    expect(lengths).toEqual([count / 2, count / 4, count / 8, count / 8, count / 4, count / 2]);
    // Every exchange pairs devices whose ids differ in one bit.
    for (const st of s.steps) {
      for (const op of st.ops)
        for (const h of hopsOf(op)) expect(Number.isInteger(Math.log2(h.from ^ h.to))).toBe(true);
    }
  });
});

describe("bus bandwidth", () => {
  it("follows nccl-tests: 2(n−1)/n for all-reduce, (n−1)/n for reduce-scatter and all-gather", () => {
    expect(busBwFactor("all-reduce", 8)).toBe(1.75);
    expect(busBwFactor("reduce-scatter", 4)).toBe(0.75);
    expect(busBwFactor("all-gather", 2)).toBe(0.5);
  });
});
