/**
 * One-shot direct all-reduce: every device reads every input and writes the whole sum, in a single
 * step. It needs each device to see all the others' memory at once (one GPUDevice: the NVLink-switch
 * picture), and moves n× more bytes than a ring, but has no step-to-step latency.
 */
import { nonEmpty, type Schedule } from "./schedule.ts";

export function oneShotAllReduce(ranks: readonly number[], count: number): Schedule {
  const whole = { offset: 0, length: count };
  return {
    algorithm: "one-shot",
    collective: "all-reduce",
    ranks: [...ranks],
    count,
    steps: [
      {
        phase: "reduce",
        ops: nonEmpty(
          ranks.map((dst) => ({
            kind: "sum" as const,
            dst,
            range: whole,
            sources: ranks.map((rank) => ({ rank, buf: "in" as const })),
          })),
        ),
      },
    ],
    expected: ranks.map((rank) => ({ rank, range: whole, contributors: [...ranks], scale: 1 })),
  };
}
