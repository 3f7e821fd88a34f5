/**
 * DiLoCo as a policy (docs/model.md §7): its run function, its closed form and its words. Rounds
 * of H inner steps each replica takes alone, then one outer sync among the round's participants;
 * Streaming DiLoCo overlaps the sync with the next τ steps.
 */
import type { Policy } from "../policy.ts";
import { runDiloco } from "./diloco.ts";
import { dilocoClosedForm } from "./dilocoForm.ts";

export type { DilocoRecording } from "./diloco.ts";

export const dilocoPolicy: Policy = {
  key: "diloco",
  label: "DiLoCo",
  shortLabel: "DiLoCo",
  colour: { cssVar: "--diloco", fallback: "#8a5cc7" },
  blurb:
    "Each replica takes H steps alone, then the round's replicas average their changes in one outer sync; a failure costs the struck replica its round, one during the sync costs every participant theirs.",
  csvPrefix: "diloco",
  cardMetric: "roundsDiscarded",
  run: runDiloco,
  closedForm: dilocoClosedForm,
  formText: { formula: "q·H·s / (H·s + B), B = max(0, T − τ·s)", assumes: "no failures and no slow hosts" },
};
