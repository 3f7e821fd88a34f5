/**
 * The One step knobs and the `st=` decoder share one range table, so what a
 * knob accepts the link reopens, and what the link refuses the knob refuses.
 */
import { describe, expect, it } from "vitest";
import {
  DEFAULT_STEP_SETTINGS,
  decodeStepParam,
  encodeStepParam,
  type StepSettings,
} from "../../link/stepLink.ts";
import { computeForElements } from "../../step/presetCatalog.ts";
import { STEP_RANGES } from "../../step/stepRanges.ts";
import { fittedLink, type LinkFit } from "../../step/trace/linkFit.ts";
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

describe("what the page computes itself stays within the table", () => {
  it("a pasted list's estimated compute and a trace's fitted link reopen from a link", () => {
    const { computeMs, alphaSeconds, bandwidthBytesPerSecond } = STEP_RANGES;
    // 10¹⁸ elements: an estimate of 2·P·8,192 tokens at 400 TFLOP/s is far past 1,000 s.
    const estimate = computeForElements(1e18);
    for (const v of Object.values(estimate)) expect(v).toBeLessThanOrEqual(computeMs.max);
    const base = DEFAULT_STEP_SETTINGS.config.parallel.interLink;
    const fitOf = (alpha: number, bandwidth: number) => {
      const f: LinkFit = {
        ranks: 8,
        calls: 10,
        interceptMs: 0,
        msPerByte: 0,
        alpha,
        bandwidth,
        r2: 1,
        rmsMs: 0,
        residuals: [],
      };
      return fittedLink(f, base);
    };
    for (const link of [fitOf(5, 1e3), fitOf(0, 1e18)]) {
      expect(link.alpha).toBeGreaterThanOrEqual(alphaSeconds.min);
      expect(link.alpha).toBeLessThanOrEqual(alphaSeconds.max);
      expect(link.bandwidth).toBeGreaterThanOrEqual(bandwidthBytesPerSecond.min);
      expect(link.bandwidth).toBeLessThanOrEqual(bandwidthBytesPerSecond.max);
      const settings = withConfig((c) => ({ ...c, parallel: { ...c.parallel, interLink: link } }));
      expect(decodeStepParam(encodeStepParam(settings).param)).toEqual(settings);
    }
  });

  it("the slow rank's factor: the knob's, the link's and the CLI's range are the table's", () => {
    const { min, max } = STEP_RANGES.slowFactor;
    const slow = (factor: number): StepSettings =>
      withConfig((c) => ({ ...c, slowRank: { kind: "compute", factor } }));
    expect(decodeStepParam(encodeStepParam(slow(max)).param)).toEqual(slow(max));
    expect(() => decodeStepParam(encodeStepParam(slow(max * 2)).param)).toThrow();
    expect(() => decodeStepParam(encodeStepParam(slow(min / 2)).param)).toThrow();
  });
});
