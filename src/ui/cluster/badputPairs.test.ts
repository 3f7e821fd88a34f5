import { describe, expect, it } from "vitest";
import { runScenario } from "../../sim/engine.ts";
import { ettrDifference, pairedDifference } from "../../sim/monteCarlo/ettrDifference.ts";
import { McStream } from "../../sim/monteCarlo/mcStream.ts";
import { seedOf } from "../../sim/monteCarlo/mcSummary.ts";
import { runChunk } from "../../sim/monteCarlo/monteCarlo.ts";
import { closedFormsOf } from "../../sim/policies/policyForms.ts";
import type { PolicyKey } from "../../sim/policies/policyKeys.ts";
import { parseScenario, type Scenario } from "../../sim/scenario/index.ts";
import { BADPUT_CATEGORIES, type BadputCategory } from "../../sim/types.ts";
import { type BadputSide, badputBasis, badputPairs, sharedPolicies, shareText } from "./badputPairs.ts";
import { bandPair } from "./bandPair.ts";

const SMALL = { cluster: { gpus: 4096, replicas: 8 }, training: { days: 3 }, seed: 11 };
const RUNS = 20;

/** A Monte Carlo as the page streams it (McStream over runChunk), to its stop at the cap. */
function streamed(s: Scenario, cap = RUNS): McStream {
  const stream = new McStream(s, { precision: 0.0001, cap });
  for (let j = stream.next(); j; j = stream.next()) {
    stream.put(j.index, runChunk(s, j.chunk));
    if (stream.stop) break;
  }
  return stream;
}

/** What the comparison keeps of a stopped stream: its summary and per-run badput (clusterRunner.ts). */
function side(stream: McStream): BadputSide {
  return { result: stream.result(closedFormsOf(stream.scenario)), samples: stream.badputSamples() };
}

/** Each seed's run on its own, straight from the engine: one policy's badput share and ETTR. */
function perSeed(s: Scenario, runs: number, key: PolicyKey, metric: BadputCategory | "ettr"): number[] {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const m = runScenario(s, { seed: seedOf(s, i) })[key]!;
    out.push(metric === "ettr" ? m.ettr : m.badput[metric]);
  }
  return out;
}

/** Mean and 1.96·sd/√n (sd the sample standard deviation), written out here rather than borrowed. */
function meanHalf(xs: number[]): { mean: number; half: number } {
  const mean = xs.reduce((a, x) => a + x, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1));
  return { mean, half: (1.96 * sd) / Math.sqrt(xs.length) };
}

describe("the comparison's badput side by side", () => {
  // A slower restart: the synchronous job's recovery share grows, FT-HSDP's is the replicas'.
  const A = parseScenario(SMALL);
  const B = parseScenario({
    ...SMALL,
    sync: { restartSeconds: 900 },
    policies: ["synchronous", "ftHsdp", "diloco"],
  });
  const streamA = streamed(A);
  const streamB = streamed(B);
  const a = side(streamA);
  const b = side(streamB);

  it("pairs each category's mean of the two runs, for the strategies both ran", () => {
    expect(a.result.seeds).toBe(RUNS);
    expect(sharedPolicies(a.result, b.result)).toEqual(["synchronous", "ftHsdp"]);
    const rows = badputPairs(a, b);
    const recovery = rows.find((r) => r.category === "recovery");
    // Paired over every run of both: the means are the summaries' means, bit for bit.
    expect(recovery?.cells.synchronous).toMatchObject({
      base: a.result.synchronous?.badput.recovery.mean,
      current: b.result.synchronous?.badput.recovery.mean,
    });
    expect((recovery?.cells.synchronous?.current ?? 0) > (recovery?.cells.synchronous?.base ?? 1)).toBe(true);
    // DiLoCo ran in one only: no column, and its categories only where another strategy has them.
    expect(rows.every((r) => r.cells.diloco === undefined)).toBe(true);
    expect(rows.some((r) => r.category === "outerSync")).toBe(false);
    // Categories zero in both are left out.
    expect(rows.some((r) => r.category === "spareWait")).toBe(false);
  });

  it("gives each difference the error of the per-seed differences, seed by seed from the engine", () => {
    const rows = badputPairs(a, b);
    expect(rows.length).toBeGreaterThan(2);
    let checked = 0;
    for (const r of rows)
      for (const k of ["synchronous", "ftHsdp"]) {
        const inA = perSeed(A, RUNS, k, r.category);
        const inB = perSeed(B, RUNS, k, r.category);
        const want = meanHalf(inB.map((x, i) => x - inA[i]!));
        const cell = r.cells[k]!;
        expect(cell.d).toMatchObject({ kind: "paired", n: RUNS, firstSeed: 11 });
        expect(cell.d.mean).toBeCloseTo(want.mean, 14);
        expect(cell.d.half).toBeCloseTo(want.half, 14);
        expect(cell.base).toBeCloseTo(meanHalf(inA).mean, 14);
        expect(cell.current).toBeCloseTo(meanHalf(inB).mean, 14);
        checked++;
      }
    expect(checked).toBe(rows.length * 2);
    // Pairing takes out the failures both draw: the synchronous recovery's error is well below
    // what the two samples' errors would make it apart.
    const rec = rows.find((r) => r.category === "recovery")!.cells.synchronous!;
    const apart = Math.hypot(
      meanHalf(perSeed(A, RUNS, "synchronous", "recovery")).half,
      meanHalf(perSeed(B, RUNS, "synchronous", "recovery")).half,
    );
    expect(rec.d.half).toBeLessThan(apart / 2);
    expect(rec.d.half).toBeGreaterThan(0);
    expect(badputBasis(rec.d, b.result.seeds, a.result.seeds)).toBe("paired by seed, 20 runs");
  });

  it("is unpaired when the two share no seed: the difference of the means, the half-widths in quadrature", () => {
    const C = parseScenario({ ...SMALL, seed: 1000, sync: { restartSeconds: 900 } });
    const c = side(streamed(C));
    const rows = badputPairs(a, c);
    const rec = rows.find((r) => r.category === "recovery")!.cells.synchronous!;
    const inA = meanHalf(perSeed(A, RUNS, "synchronous", "recovery"));
    const inC = meanHalf(perSeed(C, RUNS, "synchronous", "recovery"));
    expect(rec.d.kind).toBe("unpaired");
    expect(rec.d.mean).toBeCloseTo(inC.mean - inA.mean, 14);
    expect(rec.d.half).toBeCloseTo(Math.hypot(inA.half, inC.half), 14);
    expect([rec.base, rec.current]).toEqual([
      a.result.synchronous?.badput.recovery.mean,
      c.result.synchronous?.badput.recovery.mean,
    ]);
    expect(badputBasis(rec.d, c.result.seeds, a.result.seeds)).toBe(
      "unpaired: the baseline ran none of these seeds; 20 and 20 runs",
    );
  });

  it("pairs over the seeds both ran when they overlap in part, the means over those seeds", () => {
    // Seeds 21..45 against the baseline's 11..30: seeds 21..30 are both.
    const D = parseScenario({ ...SMALL, seed: 21, sync: { restartSeconds: 900 } });
    const d = side(streamed(D, 25));
    const rec = badputPairs(a, d).find((r) => r.category === "recovery")!.cells.synchronous!;
    expect(rec.d).toMatchObject({ kind: "paired", n: 10, firstSeed: 21 });
    const inA = perSeed(A, RUNS, "synchronous", "recovery").slice(10);
    const inD = perSeed(D, 10, "synchronous", "recovery");
    expect(rec.base).toBeCloseTo(meanHalf(inA).mean, 14);
    expect(rec.current).toBeCloseTo(meanHalf(inD).mean, 14);
    expect(rec.d.mean).toBeCloseTo(meanHalf(inD.map((x, i) => x - inA[i]!)).mean, 14);
    expect(badputBasis(rec.d, d.result.seeds, a.result.seeds)).toBe(
      "paired by seed over the 10 seeds both ran, 21–30, of 20 and 25 runs: the means are over those seeds too",
    );
  });

  it("is the ETTR difference's function: on the ETTR samples it gives exactly what the ETTR table shows", () => {
    const snapA = streamA.snapshot();
    const snapB = streamB.snapshot();
    for (const k of ["synchronous", "ftHsdp"]) {
      const { d } = bandPair(k, B, {
        current: { scenario: B, snapshot: snapB },
        base: { scenario: A, snapshot: snapA },
        baseline: A,
      });
      const fromEngine = (s: Scenario) => ({
        samples: Float64Array.from(perSeed(s, RUNS, k, "ettr")),
        seed: s.seed,
      });
      const same = pairedDifference(fromEngine(B), fromEngine(A));
      expect(d).toEqual(same);
      expect(d).toEqual(ettrDifference(fromEngine(B), fromEngine(A)));
      // The ETTR and the badput pair the same seeds.
      const cell = badputPairs(a, b).find((r) => r.category === "recovery")!.cells[k]!;
      expect(d).toMatchObject({ kind: cell.d.kind, n: (cell.d as { n: number }).n, firstSeed: 11 });
    }
    // Every category's per-run shares are the engine's, in seed order.
    for (const cat of BADPUT_CATEGORIES)
      expect(Array.from(a.samples.ftHsdp![cat])).toEqual(perSeed(A, RUNS, "ftHsdp", cat));
  });

  it("says both shares and the difference with its error in points", () => {
    const un = (mean: number, half: number) => ({ kind: "unpaired" as const, mean, half });
    expect(shareText({ base: 0.123, current: 0.101, d: un(-0.022, 0.004) })).toBe(
      "12.3% → 10.1% (−2.2 ± 0.4 points)",
    );
    expect(shareText({ base: 0.1, current: 0.15, d: un(0.05, 0.01) })).toBe(
      "10.0% → 15.0% (+5.0 ± 1.0 points)",
    );
    // A half-width under 0.1 point: two decimals everywhere, so the shares and the difference add up.
    expect(shareText({ base: 0.0031, current: 0.0043, d: un(0.0012, 0.0003) })).toBe(
      "0.31% → 0.43% (+0.12 ± 0.03 points)",
    );
    // The same seed for seed, or nothing lost in any run of either.
    const same = {
      kind: "paired" as const,
      n: 20,
      firstSeed: 11,
      mean: 0,
      half: 0,
      aMean: 0.0043,
      bMean: 0.0043,
    };
    expect(shareText({ base: 0.0043, current: 0.0043, d: same })).toBe(
      "0.43% → 0.43% (no change in any run)",
    );
    expect(shareText({ base: 0, current: 0, d: { ...same, aMean: 0, bMean: 0 } })).toBe("none in either");
    // Unpaired, an equal mean is not a claim about each run.
    expect(shareText({ base: 0.0043, current: 0.0043, d: un(0, 0) })).toBe(
      "0.43% → 0.43% (+0.00 ± 0.00 points)",
    );
    // From the engine: the slower restart moves the synchronous recovery only; the detection of
    // each failure is the same seed for seed.
    const rows = badputPairs(a, b);
    expect(shareText(rows.find((r) => r.category === "detection")!.cells.synchronous!)).toMatch(
      /\(no change in any run\)$/,
    );
    expect(shareText(rows.find((r) => r.category === "recovery")!.cells.ftHsdp!)).toBe("none in either");
  });
});
