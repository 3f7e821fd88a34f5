import { describe, expect, it } from "vitest";
import { LinkError } from "./linkError.ts";
import { sealText } from "./sealedText.ts";
import { DEFAULT_SWEEP_SETTINGS, decodeSweepParam, type SweepSettings, sweepParam } from "./sweepLink.ts";

describe("the sweep in the link (sw=)", () => {
  it("writes nothing for the defaults, so a link without a sweep is unchanged", () => {
    expect(sweepParam(DEFAULT_SWEEP_SETTINGS)).toBe("");
    expect(decodeSweepParam(undefined)).toEqual(DEFAULT_SWEEP_SETTINGS);
  });

  it("round-trips axis, points, seeds, a range and whether it ran, in a readable value", () => {
    const cases: SweepSettings[] = [
      { axis: "mtbf", points: 13, seeds: 40, range: { from: 12.5, to: 600 }, run: true },
      { axis: "replicaRestartSeconds", points: 2, seeds: 2000, range: null, run: false },
      { axis: "gpus", points: 20, seeds: 200, range: null, run: true },
      { axis: "gpus", points: 50, seeds: 1, range: { from: 0, to: 1e-7 }, run: false },
    ];
    for (const c of cases) expect(decodeSweepParam(sweepParam(c))).toEqual(c);
    expect(sweepParam(cases[0]!)).toMatch(/^mtbf,13,40,12\.5:600,run~[0-9a-f]{8}$/);
  });

  it("refuses a changed character (the seal) and names the bad part of a sealed value", () => {
    const good = sweepParam({ axis: "gpus", points: 12, seeds: 40, range: null, run: true });
    expect(() => decodeSweepParam(good.replace("12", "13"))).toThrow(/integrity check/);
    const bad: [string, RegExp][] = [
      ["power,12,40", /axis must be one of gpus, mtbf/],
      ["gpus,1,40", /points must be an integer in \[2, 50\]/],
      ["gpus,51,40", /points must be an integer in \[2, 50\]/],
      ["gpus,12,0", /seeds must be an integer in \[1, 2000\]/],
      ["gpus,12,2.5", /seeds must be an integer/],
      ["gpus,12,40,9:3", /from \(9\) must be below to \(3\)/],
      ["gpus,12,40,1:2:3", /neither a range from:to, zoom nor run/],
      ["gpus,12,40,run,1:2", /neither a range/],
      ["gpus,12,40,-1:5", /must be numbers ≥ 0/],
      ["gpus,12,40,Infinity:5", /must be numbers ≥ 0/],
      ["gpus,12", /seeds must be an integer/],
    ];
    for (const [text, message] of bad) {
      const attempt = () => decodeSweepParam(sealText(text));
      expect(attempt).toThrow(LinkError);
      expect(attempt).toThrow(message);
    }
    expect(() => decodeSweepParam(sealText(`gpus,12,40,${"1".repeat(200)}:2`))).toThrow(/longer than/);
  });

  it("carries the chart's zoom as a word of its own, before run; a link without it reads unzoomed", () => {
    const z: SweepSettings = {
      axis: "slow.evictAfterMinutes",
      points: 6,
      seeds: 40,
      range: null,
      run: true,
      zoom: true,
    };
    expect(sweepParam(z)).toMatch(/^slow\.evictAfterMinutes,6,40,zoom,run~[0-9a-f]{8}$/);
    expect(decodeSweepParam(sweepParam(z))).toEqual(z);
    const onlyZoom = { ...DEFAULT_SWEEP_SETTINGS, zoom: true };
    expect(sweepParam(onlyZoom)).not.toBe("");
    expect(decodeSweepParam(sweepParam(onlyZoom))).toEqual(onlyZoom);
    // A link written before the zoom: its value and what it reads are as they were.
    const old: SweepSettings = {
      axis: "mtbf",
      points: 13,
      seeds: 40,
      range: { from: 12.5, to: 600 },
      run: true,
    };
    expect(sweepParam({ ...old, zoom: false })).toBe(sweepParam(old));
    expect(decodeSweepParam(sweepParam(old)).zoom).toBeUndefined();
    for (const text of ["gpus,12,40,run,zoom", "gpus,12,40,zoom,zoom", "gpus,12,40,zoom,1:2"])
      expect(() => decodeSweepParam(sealText(text))).toThrow(/neither a range from:to, zoom nor run/);
    expect(decodeSweepParam(sealText("gpus,12,40,1:2,zoom")).range).toEqual({ from: 1, to: 2 });
  });

  it("carries a cause's axis by its place in the list; a spelling that names no cause is refused", () => {
    const c: SweepSettings = {
      axis: "cause.17.share",
      points: 9,
      seeds: 50,
      range: { from: 0.1, to: 0.6 },
      run: true,
    };
    expect(sweepParam(c)).toMatch(/^cause\.17\.share,9,50,0\.1:0\.6,run~[0-9a-f]{8}$/);
    expect(decodeSweepParam(sweepParam(c))).toEqual(c);
    const scope: SweepSettings = { axis: "cause.0.scope", points: 3, seeds: 20, range: null, run: false };
    expect(decodeSweepParam(sweepParam(scope))).toEqual(scope);
    for (const text of [
      "cause.01.share,9,50",
      "cause.32.share,9,50",
      "cause.0.name,9,50",
      "cause.x.share,9,50",
    ])
      expect(() => decodeSweepParam(sealText(text))).toThrow(/axis must be one of .*cause\.<i>\.share/);
  });
});
