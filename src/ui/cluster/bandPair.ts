/**
 * One strategy's two bands and their difference, as the cards (McBand.tsx) and the comparison
 * (CompareWith.tsx) both show them: the scenario on screen's band only when it is that scenario's,
 * the baseline's only when it is the pinned baseline's, and the difference paired by seed where
 * the two ran the same seeds (ettrDifference.ts). One function, so the two can never disagree.
 */
import { type EttrDifference, ettrDifference } from "../../sim/monteCarlo/ettrDifference.ts";
import type { EttrEstimate } from "../../sim/monteCarlo/mcStream.ts";
import type { PolicyKey } from "../../sim/policies/policyKeys.ts";
import type { Scenario } from "../../sim/scenario/index.ts";
import type { McState } from "../../state/mcStore.ts";

export interface BandPair {
  /** This scenario's band, the baseline's, and the difference this − baseline (null until both ran). */
  e: EttrEstimate | undefined;
  b: EttrEstimate | undefined;
  d: EttrDifference | null;
}

export function bandPair(
  policy: PolicyKey,
  scenario: Scenario,
  mc: Pick<McState, "current" | "base" | "baseline">,
): BandPair {
  const { current, base, baseline } = mc;
  // Only the band of the scenario on screen: an older one's numbers are not this scenario's.
  const e = current && current.scenario === scenario ? current.snapshot.ettr[policy] : undefined;
  const b = base && baseline && base.scenario === baseline ? base.snapshot.ettr[policy] : undefined;
  const d =
    e && b && current && base
      ? ettrDifference(
          { samples: e.samples, seed: current.scenario.seed },
          { samples: b.samples, seed: base.scenario.seed },
        )
      : null;
  return { e, b, d };
}
