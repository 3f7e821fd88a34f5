/**
 * The reference's run function for each policy key of docs/model.md §4 "Which strategies run";
 * with §6's slow episodes, `failures` holds their evictions (./slow.ts withReferenceEvictions).
 */
import type { PolicyKey } from "../../sim/policies/policyKeys.ts";
import type { Scenario } from "../../sim/scenario/index.ts";
import type { Failure, Knobs } from "./failures.ts";
import { type ReferenceMetrics, referenceFtHsdpV2, referenceSynchronousV2 } from "./independent.ts";
import { referenceDiloco } from "./independentDiloco.ts";
import { referenceHotSpare, referenceInMemory } from "./independentV3.ts";
import type { SlowRun } from "./slow.ts";

export const REFERENCE_POLICIES: Record<
  PolicyKey,
  (s: Scenario, k: Knobs, failures: readonly Failure[], slow?: SlowRun | null) => ReferenceMetrics
> = {
  synchronous: referenceSynchronousV2,
  ftHsdp: referenceFtHsdpV2,
  inMemory: referenceInMemory,
  hotSpare: referenceHotSpare,
  diloco: referenceDiloco,
};
