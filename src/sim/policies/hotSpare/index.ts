/** Hot spares as the plug-in list lists them: warm standbys take over broken hosts. */
import type { Policy } from "../policy.ts";
import { hotSpareClosedForm, runHotSpare } from "./hotSpare.ts";

export const hotSparePolicy: Policy = {
  key: "hotSpare",
  label: "Hot spares",
  shortLabel: "Hot spares",
  colour: { cssVar: "--hotspare", fallback: "#b7791f" },
  blurb:
    "Warm standby hosts take over broken ones by live migration, with nothing rolled back; when too few are ready, the job restarts from its checkpoint.",
  csvPrefix: "hot_spare",
  cardMetric: "jobRestarts",
  run: runHotSpare,
  closedForm: hotSpareClosedForm,
  formText: {
    formula: "E[e^(−λD)], D = detect + migrate",
    assumes: "host-scope failures only, standbys never short and no checkpoints",
  },
};
