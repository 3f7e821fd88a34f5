/**
 * Old step links never change meaning. step-recorded.json holds what the step model produced
 * before the slow rank (commit d18b5c1) for the defaults (an address without `st=`), a
 * pasted list and 16 generated links over every preset, mode, algorithm and link
 * (scripts/record-step-compat.ts, run once). Each link, decoded and run today, must give every
 * recorded number back bit for bit, with the slow rank at its default (none).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFAULT_STEP_SETTINGS, decodeStepParam } from "../../link/stepLink.ts";
import { parseModelList } from "../modelList.ts";
import { presetParams } from "../presets.ts";
import { runStep } from "../stepTimeline.ts";
import { stepDigest } from "./stepDigest.ts";

interface RecordedCase {
  label: string;
  link: string;
  result: unknown;
}

const recorded = JSON.parse(readFileSync(new URL("./step-recorded.json", import.meta.url), "utf8")) as {
  recordedAt: string;
  cases: RecordedCase[];
};

function run(link: string) {
  const s = link === "" ? DEFAULT_STEP_SETTINGS : decodeStepParam(link);
  const params = s.model.kind === "preset" ? presetParams(s.model.id) : parseModelList(s.model.text);
  return runStep(params, s.config);
}

describe("step links from before the slow rank", () => {
  it("are the recorded defaults, a paste and generated links", () => {
    expect(recorded.recordedAt).toBe("d18b5c1");
    expect(recorded.cases.map((c) => c.label).slice(0, 2)).toEqual(["default", "pasted"]);
    expect(recorded.cases).toHaveLength(18);
  });

  for (const c of recorded.cases) {
    it(`${c.label} gives the recorded step bit for bit`, () => {
      const r = run(c.link);
      // Round-tripped through JSON as the record was, so only values can differ, not types.
      expect(JSON.parse(JSON.stringify(stepDigest(r)))).toEqual(c.result);
      // The slow rank's default adds nothing: no effect, and no wait on any reduction.
      expect(r.slowRank).toBeUndefined();
      expect([...r.overlapped.comm, ...r.baseline.comm].some((x) => "wait" in x)).toBe(false);
    });
  }
});
