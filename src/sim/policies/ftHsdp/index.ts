/** FT-HSDP as the plug-in list lists it: a failure takes one replica offline, the rest train on. */
import { FT_FORM_MAX_LOAD } from "../../closedForms/closedForms.ts";
import type { Policy } from "../policy.ts";
import { ftHsdpClosedForm, runFtHsdp } from "./ftHsdp.ts";

export const ftHsdpPolicy: Policy = {
  key: "ftHsdp",
  label: "FT-HSDP",
  shortLabel: "FT-HSDP",
  formText: {
    formula: "e^(−λ·E[S])·(1 − λT/R)·C/(C+W)/(1 + o/100)",
    assumes: `one replica per failure, no job-scope causes, λ(S+T) ≤ ${FT_FORM_MAX_LOAD}, at most R − minReplicas replicas down at once`,
  },
  colour: { cssVar: "--ft", fallback: "#2f9e6e" },
  blurb: "A failure takes one replica offline; the rest keep training through FTAR.",
  csvPrefix: "ft_hsdp",
  cardMetric: "degradedSeconds",
  run: runFtHsdp,
  closedForm: ftHsdpClosedForm,
};
