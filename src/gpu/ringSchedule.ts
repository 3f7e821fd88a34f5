/**
 * Ring collectives over `ring` (device ids in ring order). The buffer is cut into one aligned
 * chunk per position. Reduce-scatter: at step s, position p passes chunk (p − s) mod n to p + 1,
 * which adds its own input; after n − 1 steps position p holds chunk (p + 1) mod n summed over
 * everyone. All-gather: at step s, position p forwards chunk (p + 1 − s) mod n. In every step each
 * position sends one chunk and receives a different one, so a step's operations never overlap.
 */
import { type Range, splitAligned } from "./chunking.ts";
import { type Expectation, nonEmpty, type Schedule, type Step, type SumOp } from "./schedule.ts";

const mod = (a: number, n: number) => ((a % n) + n) % n;

/** The chunk position p ends up holding after the reduce-scatter (and contributes to an all-gather). */
export function ownedChunk(position: number, n: number): number {
  return mod(position + 1, n);
}

function rankAt(ring: readonly number[], position: number): number {
  const r = ring[mod(position, ring.length)];
  if (r === undefined) throw new RangeError("empty ring");
  return r;
}

function chunkAt(chunks: readonly Range[], c: number): Range {
  const r = chunks[c];
  if (!r) throw new RangeError(`no chunk ${c}`);
  return r;
}

function reduceScatterSteps(ring: readonly number[], chunks: readonly Range[]): Step[] {
  const n = ring.length;
  const steps: Step[] = [];
  for (let s = 0; s < n - 1; s++) {
    const ops: SumOp[] = [];
    for (let p = 0; p < n; p++) {
      const from = rankAt(ring, p);
      const to = rankAt(ring, p + 1);
      const c = mod(p - s, n);
      ops.push({
        kind: "sum",
        dst: to,
        range: chunkAt(chunks, c),
        // The first hop carries the sender's own input; later ones its running partial sum.
        sources: [
          { rank: to, buf: "in" },
          { rank: from, buf: s === 0 ? "in" : "out" },
        ],
        chunk: c,
      });
    }
    steps.push({ phase: "reduce-scatter", ops: nonEmpty(ops) });
  }
  return steps;
}

/** `fromInput`: the owned chunks start in `in` (a stand-alone all-gather), not in `out`. */
function allGatherSteps(ring: readonly number[], chunks: readonly Range[], fromInput: boolean): Step[] {
  const n = ring.length;
  const steps: Step[] = [];
  for (let s = 0; s < n - 1; s++) {
    const ops: SumOp[] = [];
    for (let p = 0; p < n; p++) {
      const from = rankAt(ring, p);
      const to = rankAt(ring, p + 1);
      const c = mod(p + 1 - s, n);
      ops.push({
        kind: "sum",
        dst: to,
        range: chunkAt(chunks, c),
        sources: [{ rank: from, buf: fromInput && s === 0 ? "in" : "out" }],
        chunk: c,
      });
      if (fromInput && s === 0) {
        // Each device also keeps its own chunk: a local copy, in the same step (another chunk).
        ops.push({
          kind: "sum",
          dst: from,
          range: chunkAt(chunks, c),
          sources: [{ rank: from, buf: "in" }],
          chunk: c,
        });
      }
    }
    steps.push({ phase: "all-gather", ops: nonEmpty(ops) });
  }
  return steps;
}

function everyoneGetsTheSum(ring: readonly number[], count: number): Expectation[] {
  return ring.map((rank) => ({
    rank,
    range: { offset: 0, length: count },
    contributors: [...ring],
    scale: 1,
  }));
}

export function ringAllReduce(ring: readonly number[], count: number): Schedule {
  const chunks = splitAligned(count, ring.length);
  return {
    algorithm: "ring",
    collective: "all-reduce",
    ranks: [...ring],
    count,
    steps: [...reduceScatterSteps(ring, chunks), ...allGatherSteps(ring, chunks, false)],
    expected: everyoneGetsTheSum(ring, count),
  };
}

export function ringReduceScatter(ring: readonly number[], count: number): Schedule {
  const n = ring.length;
  const chunks = splitAligned(count, n);
  return {
    algorithm: "reduce-scatter",
    collective: "reduce-scatter",
    ranks: [...ring],
    count,
    steps: reduceScatterSteps(ring, chunks),
    expected: ring
      .map((rank, p) => ({
        rank,
        range: chunkAt(chunks, ownedChunk(p, n)),
        contributors: [...ring],
        scale: 1,
      }))
      .filter((e) => e.range.length > 0),
  };
}

export function ringAllGather(ring: readonly number[], count: number): Schedule {
  const n = ring.length;
  const chunks = splitAligned(count, n);
  const expected: Expectation[] = [];
  for (const rank of ring) {
    for (let p = 0; p < n; p++) {
      const range = chunkAt(chunks, ownedChunk(p, n));
      if (range.length > 0) expected.push({ rank, range, contributors: [rankAt(ring, p)], scale: 1 });
    }
  }
  return {
    algorithm: "all-gather",
    collective: "all-gather",
    ranks: [...ring],
    count,
    steps: allGatherSteps(ring, chunks, true),
    expected,
  };
}
