/** The synchronous policy as the plug-in list lists it: every failure stops the whole job. */
import type { Policy } from "../policy.ts";
import { runSynchronous } from "./synchronous.ts";

export const synchronousPolicy: Policy = {
  key: "synchronous",
  label: "Synchronous",
  shortLabel: "Sync",
  formText: { formula: "E[e^(−λD)]·λC/(e^(λ(C+W))−1)", assumes: "" },
  colour: { cssVar: "--sync", fallback: "#d1495b" },
  blurb: "Every failure stops the whole job until it restarts from the last checkpoint.",
  csvPrefix: "sync",
  cardMetric: "checkpoints",
  run: runSynchronous,
  closedForm: (_s, base) => base.syncRenewal,
};
