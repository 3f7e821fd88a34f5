/**
 * Issue 30, item 16: the One step knobs and the `st=` decoder share one range table, so what a
 * knob accepts the link reopens, and what the link refuses the knob refuses.
 */
import { describe, expect, it } from "vitest";
import {
  DEFAULT_STEP_SETTINGS,
  decodeStepParam,
  encodeStepParam,
  type StepSettings,
} from "../../link/stepLink.ts";
import { STEP_RANGES } from "../../step/stepRanges.ts";
import { boundsProblem } from "../form/NumberField.tsx";

const withConfig = (edit: (c: StepSettings["config"]) => StepSettings["config"]): StepSettings => ({
  ...DEFAULT_STEP_SETTINGS,
  config: edit(DEFAULT_STEP_SETTINGS.config),
});

const cases: [string, keyof typeof STEP_RANGES, (v: number) => StepSettings][] = [
  ["forward", "computeMs", (v) => withConfig((c) => ({ ...c, compute: { ...c.compute, forwardMs: v } }))],
  ["backward", "computeMs", (v) => withConfig((c) => ({ ...c, compute: { ...c.compute, backwardMs: v } }))],
  ["first bucket", "firstBucketMb", (v) => withConfig((c) => ({ ...c, firstBucketMb: v }))],
  [
    "α",
    "alphaSeconds",
    (v) =>
      withConfig((c) => ({
        ...c,
        parallel: { ...c.parallel, interLink: { ...c.parallel.interLink, alpha: v } },
      })),
  ],
  [
    "B",
    "bandwidthBytesPerSecond",
    (v) =>
      withConfig((c) => ({
        ...c,
        parallel: { ...c.parallel, interLink: { ...c.parallel.interLink, bandwidth: v } },
      })),
  ],
];

describe("one range for the knob and the link", () => {
  for (const [name, key, settings] of cases) {
    it(`${name}: the link reopens its range's ends and refuses past them, as the knob does`, () => {
      const { min, max } = STEP_RANGES[key];
      expect(decodeStepParam(encodeStepParam(settings(max)).param)).toEqual(settings(max));
      expect(() => decodeStepParam(encodeStepParam(settings(max * 2)).param)).toThrow();
      expect(boundsProblem(name, max, { min, max })).toBeNull();
      expect(boundsProblem(name, max * 2, { min, max })).not.toBeNull();
      // 1e308 typed into Backward, Forward or any other: refused by the knob's bound.
      expect(boundsProblem(name, 1e308, { min, max })).not.toBeNull();
    });
  }
});
