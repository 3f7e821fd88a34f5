/**
 * The Decoupled DiLoCo rows' reasons quote shares of the preset's lost time that the model
 * computes: this test recomputes them, so a sentence on the Papers page cannot drift from the
 * scenario it describes (each share as written, to its whole percent, ± 1 point for the seeds).
 */
import "../../testing/registerPlugins.ts";
import { describe, expect, it } from "vitest";
import { monteCarlo } from "../monteCarlo/monteCarlo.ts";
import { derived, parseScenario } from "../scenario/index.ts";
import { CLAIMS } from "./claims.ts";

const row = (id: string) => {
  const c = CLAIMS.find((x) => x.id === id);
  if (!c) throw new Error(`no claim ${id}`);
  return c;
};
/** The whole percents a sentence quotes, in order: "restarts (68 %)" → 68. */
const quoted = (text: string) => [...text.matchAll(/\((\d+) %[^)]*\)/g)].map((m) => Number(m[1]));

describe("the Decoupled DiLoCo rows' reasons", () => {
  const dp = row("decoupled-diloco-dp");
  const dl = row("decoupled-diloco");
  const mc = monteCarlo(parseScenario(dl.scenario), 20);

  it("run the preset's scenario, both rows the same", () => {
    expect(dp.scenario).toBe(dl.scenario);
  });

  it("data parallelism: the restarts' and the detections' shares of its lost time", () => {
    const b = mc.synchronous!.badput;
    // Shares of wall time: with 3.6 % training, the two make up nearly all of it.
    const [restarts, detections] = quoted(dp.whyOff ?? "");
    expect(Math.abs(100 * b.recovery.mean - restarts!)).toBeLessThanOrEqual(1);
    expect(Math.abs(100 * b.detection.mean - detections!)).toBeLessThanOrEqual(1);
  });

  it("DiLoCo: down for detection and restart, discarded rounds, waiting for the outer sync", () => {
    const b = mc.diloco!.badput;
    const [down, discarded, sync] = quoted(dl.whyOff ?? "");
    expect(Math.abs(100 * (b.detection.mean + b.recovery.mean) - down!)).toBeLessThanOrEqual(1);
    expect(Math.abs(100 * b.rolledBack.mean - discarded!)).toBeLessThanOrEqual(1);
    expect(Math.abs(100 * b.outerSync.mean - sync!)).toBeLessThanOrEqual(1);
  });

  it("DiLoCo at the failure rate that gives data parallelism its 27 %: the two ETTRs the reason quotes", () => {
    const s = parseScenario(dl.scenario);
    // That rate: the synchronous job's stall per failure over λD = −ln 0.27, as the reason computes it.
    const mtbf = (s.detection.failStopSeconds + s.sync.restartSeconds) / -Math.log(0.27);
    const perHostDay = s.failures.perHostDay * (derived(s).mtbfSeconds / mtbf);
    const at = (diloco: object) =>
      100 *
      monteCarlo(
        parseScenario({
          ...dl.scenario,
          failures: { ...s.failures, perHostDay },
          diloco: { ...s.diloco, ...diloco },
        }),
        20,
      ).diloco!.ettr.mean;
    const [plain, overlapped] = [...(dl.whyOff ?? "").matchAll(/~(\d+) %/g)].map((m) => Number(m[1]));
    expect(Math.abs(at({}) - plain!)).toBeLessThanOrEqual(2);
    expect(Math.abs(at({ overlapSteps: 5 }) - overlapped!)).toBeLessThanOrEqual(2);
  });
});
