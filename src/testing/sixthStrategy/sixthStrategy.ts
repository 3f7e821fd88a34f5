/**
 * A test double for a sixth strategy, as a plug-in is written: one Policy, in one folder. It is the
 * synchronous job with restarts twice as long (so its numbers differ from synchronous's where a
 * failure strikes), drawn as a whole-job recording. Its test (sixthStrategy.test.ts) adds it to
 * the plug-in list by one line and finds it in the picker, the page, the worker and the CLI.
 */
import type { Policy } from "../../sim/policies/policy.ts";
import { synchronousPolicy } from "../../sim/policies/synchronous/index.ts";

export const sixthStrategy: Policy = {
  ...synchronousPolicy,
  key: "slowRestart",
  label: "Slow restarts",
  shortLabel: "Slow rst",
  colour: { cssVar: "--slow-restart", fallback: "#5a4e8c" },
  blurb: "The synchronous job with restarts twice as long: a test's sixth strategy.",
  csvPrefix: "slow_restart",
  run: (s, failures, record) =>
    synchronousPolicy.run(
      { ...s, sync: { ...s.sync, restartSeconds: 2 * s.sync.restartSeconds } },
      failures,
      record,
    ),
  closedForm: () => ({ value: null, note: "none: a test double" }),
  formText: { formula: "none", assumes: "a test double" },
};
