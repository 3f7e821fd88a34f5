/**
 * Recursive halving-doubling all-reduce (Rabenseifner): log2 p exchanges that halve the range
 * each position reduces, then log2 p that double the range it holds. With n not a power of two,
 * the n − p extra devices first fold their input into a partner and get the result back at the
 * end, so the core runs on p = 2^⌊log2 n⌋ positions.
 */
import { spanOf, splitAligned } from "./chunking.ts";
import { type BufRef, nonEmpty, type Schedule, type Step, type SumOp } from "./schedule.ts";

export function halvingDoublingAllReduce(ranks: readonly number[], count: number): Schedule {
  const n = ranks.length;
  const p = 2 ** Math.floor(Math.log2(n));
  const extras = n - p;
  const whole = { offset: 0, length: count };
  const at = (q: number) => {
    const r = ranks[q];
    if (r === undefined) throw new RangeError(`no position ${q}`);
    return r;
  };
  // Whether a position's running sum lives in its `out` yet (it starts as its input).
  const written = new Array<boolean>(n).fill(false);
  const current = (q: number): BufRef => ({ rank: at(q), buf: written[q] ? "out" : "in" });
  const steps: Step[] = [];

  if (extras > 0) {
    const ops: SumOp[] = [];
    for (let e = 0; e < extras; e++) {
      ops.push({ kind: "sum", dst: at(e), range: whole, sources: [current(e), current(p + e)] });
    }
    steps.push({ phase: "fold", ops: nonEmpty(ops) });
    for (let e = 0; e < extras; e++) written[e] = true;
  }

  const chunks = splitAligned(count, p);
  // [lo, hi): the chunks position q is responsible for; it halves on the way down.
  const lo = new Array<number>(p).fill(0);
  const hi = new Array<number>(p).fill(p);
  for (let d = p / 2; d >= 1; d /= 2) {
    const ops: SumOp[] = [];
    const next = lo.map((l, q) => {
      const mid = (l + (hi[q] ?? l)) / 2;
      return (q & d) !== 0 ? { lo: mid, hi: hi[q] ?? mid } : { lo: l, hi: mid };
    });
    for (let q = 0; q < p; q++) {
      const keep = next[q];
      if (!keep) continue;
      const range = spanOf(chunks, keep.lo, keep.hi);
      ops.push({ kind: "sum", dst: at(q), range, sources: [current(q), current(q ^ d)] });
    }
    steps.push({ phase: "reduce-scatter", ops: nonEmpty(ops) });
    next.forEach((k, q) => {
      lo[q] = k.lo;
      hi[q] = k.hi;
    });
    for (let q = 0; q < p; q++) written[q] = true;
  }

  // Position q now holds chunk q; exchanging blocks of d chunks doubles that each step.
  for (let d = 1; d < p; d *= 2) {
    const ops: SumOp[] = [];
    for (let q = 0; q < p; q++) {
      const partner = q ^ d;
      const start = Math.floor(partner / d) * d;
      ops.push({
        kind: "sum",
        dst: at(q),
        range: spanOf(chunks, start, start + d),
        sources: [{ rank: at(partner), buf: "out" }],
      });
    }
    steps.push({ phase: "all-gather", ops: nonEmpty(ops) });
  }

  if (extras > 0) {
    const ops: SumOp[] = [];
    for (let e = 0; e < extras; e++) {
      ops.push({ kind: "sum", dst: at(p + e), range: whole, sources: [{ rank: at(e), buf: "out" }] });
    }
    steps.push({ phase: "unfold", ops: nonEmpty(ops) });
  }

  return {
    algorithm: "halving-doubling",
    collective: "all-reduce",
    ranks: [...ranks],
    count,
    steps,
    expected: ranks.map((rank) => ({ rank, range: whole, contributors: [...ranks], scale: 1 })),
  };
}
