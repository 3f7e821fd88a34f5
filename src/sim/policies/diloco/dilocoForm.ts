/**
 * DiLoCo's closed form (docs/model.md §7): with no failures and no slow episodes every round is
 * H·s of compute then B = max(0, T − τ·s) blocked, so ETTR = q·H·s / (H·s + B); with a checkpoint
 * cadence (interval C, write W) every m = ⌈C / (H·s)⌉-th round's blocking grows by W:
 * ETTR = q·m·H·s / (m·(H·s + B) + W). Exact in the long run; "—" with the reason otherwise.
 */
import { derived } from "../../scenario/derived.ts";
import type { Scenario } from "../../scenario/index.ts";
import type { ClosedFormValue } from "../../types.ts";

export function dilocoClosedForm(s: Scenario): ClosedFormValue {
  if (derived(s).expectedFailures > 0)
    return {
      value: null,
      note: "exact only without failures: a failure's discarded rounds have no closed form here",
    };
  if (s.slow.perHostDay > 0)
    return { value: null, note: "exact only without slow hosts: a laggard stretches its round" };
  const { syncEvery, syncSeconds, overlapSteps, stepEquivalence: q } = s.diloco;
  const Hs = syncEvery * s.training.stepSeconds;
  const B = Math.max(0, syncSeconds - overlapSteps * s.training.stepSeconds);
  const C = s.ft.checkpointMinutes * 60;
  const W = C > 0 ? s.ft.checkpointWriteSeconds : 0;
  if (W > 0) {
    const m = Math.ceil(C / Hs);
    return {
      value: (q * m * Hs) / (m * (Hs + B) + W),
      note: `exact in the long run (no failures, no slow hosts): q·m·H·s / (m·(H·s + B) + W), a write every m = ${m} rounds`,
    };
  }
  return {
    value: (q * Hs) / (Hs + B),
    note: "exact in the long run (no failures, no slow hosts): q·H·s / (H·s + B)",
  };
}
