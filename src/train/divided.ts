/**
 * The gradient all-reduce as a lab schedule: the ring's sum over everyone in it, then ÷ the
 * replicas that computed a gradient (torchft's num_participants; a healer adds zeros and is not
 * counted). A ring of one is a local copy.
 */
import { type Schedule, withDivisor } from "../gpu/schedule.ts";
import type { StepRoles } from "./plan.ts";

export function divided(ring: Schedule | null, roles: StepRoles, count: number): Schedule {
  const only = roles.ring[0];
  const sum: Schedule =
    ring ??
    ({
      algorithm: "ring",
      collective: "all-reduce",
      ranks: [...roles.ring],
      count,
      steps: [
        {
          phase: "reduce",
          ops: [
            {
              kind: "sum",
              dst: only ?? 0,
              range: { offset: 0, length: count },
              sources: [{ rank: only ?? 0, buf: "in" }],
            },
          ],
        },
      ],
      expected: [
        { rank: only ?? 0, range: { offset: 0, length: count }, contributors: [only ?? 0], scale: 1 },
      ],
    } satisfies Schedule);
  return withDivisor(sum, roles.divisor);
}
