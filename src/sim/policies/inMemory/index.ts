/** In-memory checkpoints as the plug-in list lists them: restarts from a peer's CPU memory. */
import type { Policy } from "../policy.ts";
import { inMemoryClosedForm, runInMemory } from "./inMemory.ts";

export const inMemoryPolicy: Policy = {
  key: "inMemory",
  label: "In-memory checkpoints",
  shortLabel: "In-memory",
  colour: { cssVar: "--inmem", fallback: "#3a6fd8" },
  blurb:
    "Every failure stops the whole job; it restarts from a copy in a peer's CPU memory, or from storage after a job-wide failure.",
  csvPrefix: "in_memory",
  cardMetric: "lostWorkSeconds",
  run: runInMemory,
  closedForm: inMemoryClosedForm,
  formText: { formula: "the renewal form with its own D, C, W", assumes: "host-scope failures only" },
};
