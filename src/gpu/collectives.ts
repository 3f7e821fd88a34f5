/** Which schedule each algorithm name means, and the bandwidth figures nccl-tests reports. */
import { halvingDoublingAllReduce } from "./halvingDoubling.ts";
import { oneShotAllReduce } from "./oneShot.ts";
import { ringAllGather, ringAllReduce, ringReduceScatter } from "./ringSchedule.ts";
import { type Algorithm, type Collective, type ReduceOp, type Schedule, withAverage } from "./schedule.ts";

export const ALGORITHMS: readonly Algorithm[] = [
  "ring",
  "halving-doubling",
  "one-shot",
  "reduce-scatter",
  "all-gather",
];

export function buildSchedule(
  algorithm: Algorithm,
  ranks: readonly number[],
  count: number,
  op: ReduceOp = "sum",
): Schedule {
  if (ranks.length < 2) throw new RangeError(`a collective needs at least 2 devices, got ${ranks.length}`);
  const s = (() => {
    switch (algorithm) {
      case "ring":
        return ringAllReduce(ranks, count);
      case "halving-doubling":
        return halvingDoublingAllReduce(ranks, count);
      case "one-shot":
        return oneShotAllReduce(ranks, count);
      case "reduce-scatter":
        return ringReduceScatter(ranks, count);
      case "all-gather":
        return ringAllGather(ranks, count);
    }
  })();
  if (op === "sum") return s;
  if (s.collective !== "all-reduce")
    throw new RangeError(`AVG is offered for all-reduce only, not ${s.collective}`);
  return withAverage(s);
}

/** nccl-tests: all-reduce moves 2(n−1)/n of the buffer per device; reduce-scatter, all-gather (n−1)/n. */
export function busBwFactor(collective: Collective, n: number): number {
  return collective === "all-reduce" ? (2 * (n - 1)) / n : (n - 1) / n;
}

/** algbw = S / t and busbw = algbw · factor, in bytes per second, S = bytes per device. */
export function bandwidth(collective: Collective, n: number, bytesPerDevice: number, seconds: number) {
  const algbw = bytesPerDevice / seconds;
  return { algbw, busbw: algbw * busBwFactor(collective, n) };
}
