/**
 * The closed forms hold where they say, and say where they do not: FT-HSDP's
 * forms include FTAR's step overhead, the first-order forms check the assumption they state
 * (λ(S + T), replicas short of minReplicas, λ(u₀ + C + W)), every form is a long-run rate shown
 * only over a horizon long enough for one, and the fixed preset's value sits where the
 * simulation's finite horizon puts it, as its note says.
 */
import { describe, expect, it } from "vitest";
import { resultTable } from "../../cli/simOutput.ts";
import { monteCarlo } from "../monteCarlo/monteCarlo.ts";
import { closedFormsOf } from "../policies/policyForms.ts";
import { presetById } from "../presets.ts";
import { derived, parseScenario } from "../scenario/index.ts";
import { FT_FORM_MAX_LOAD, LONG_RUN_MIN_FAILURES, META_MAX_LOAD } from "./closedForms.ts";

describe("FTAR's step overhead", () => {
  it("the fixed-arrival FT-HSDP form divides by it, and matches the run (one run is the answer)", () => {
    const s = parseScenario({ failures: { arrivals: "fixed" }, ft: { stepOverheadPercent: 10 } });
    const form = closedFormsOf(s).fixedArrivals.ftHsdp;
    const run = monteCarlo(s, 1).ftHsdp!.ettr.mean;
    expect(form.note).toMatch(/divided by 1 \+ 10\/100/);
    // Without the overhead it read 80.1 % where the run gives 72.8 %.
    expect(Math.abs((form.value ?? 0) - run)).toBeLessThan(2e-4);
  });

  it("the Poisson FT-HSDP form the CLI prints is the policy's own, overhead included", () => {
    const s = parseScenario({ ft: { stepOverheadPercent: 10 }, training: { days: 3 } });
    const cf = closedFormsOf(s);
    expect(cf.ftFirstOrder.value).toBe(cf.policies?.ftHsdp?.value);
    const row = resultTable(monteCarlo(s, 2))
      .split("\n")
      .find((l) => l.includes("Poisson, FT-HSDP"));
    expect(row).toContain(`${(100 * (cf.ftFirstOrder.value ?? 0)).toFixed(1)}%`);
    expect(row).toContain("FTAR's step overhead");
  });
});

describe("the first-order forms check their assumptions", () => {
  it("FT-HSDP's shows — past λ(S + T) = 1 (1.7 here, where it read 1.9 points low)", () => {
    const s = parseScenario({ failures: { perHostDay: 0.02 }, training: { days: 3 } });
    const f = closedFormsOf(s).policies?.ftHsdp;
    expect(f?.value).toBeNull();
    expect(f?.note).toMatch(new RegExp(`^λ\\(S \\+ T\\) = 1\\.7, past the ${FT_FORM_MAX_LOAD} `));
  });

  it("FT-HSDP's shows — where too many replicas are down at once for minReplicas (R − 1 here)", () => {
    const s = parseScenario({ ft: { minReplicas: 11 }, training: { days: 3 } });
    const f = closedFormsOf(s).ftFirstOrder;
    expect(f.value).toBeNull();
    expect(f.note).toMatch(/^more than R − minReplicas = 1 replicas are down at once/);
    // A rarer failure brings it back (λT small), within a point of the simulation.
    const rare = parseScenario({
      ft: { minReplicas: 11 },
      failures: { perHostDay: 0.001 },
      training: { days: 10 },
    });
    const v = closedFormsOf(rare).ftFirstOrder.value;
    expect(v).not.toBeNull();
    expect(Math.abs((v ?? 0) - monteCarlo(rare, 40).ftHsdp!.ettr.mean)).toBeLessThan(0.01);
  });

  it("Meta's shows — where λ(u₀ + C + W) is not small (0.5 here: it read 64 % against 69 %)", () => {
    const s = parseScenario({
      failures: { perHostDay: 0.0015 },
      sync: { checkpointMinutes: 20, checkpointWriteSeconds: 10 },
    });
    const { lambdaPerSecond: l } = derived(s);
    expect(l * (600 + 1200 + 10)).toBeGreaterThan(META_MAX_LOAD);
    const m = closedFormsOf(s).metaApproximation;
    expect(m.value).toBeNull();
    expect(m.note).toMatch(/^outside its regime: λ\(u₀ \+ C \+ W\) = /);
  });
});

describe("long-run rates", () => {
  it("a 3-hour horizon shows — for every form, saying why", () => {
    const s = parseScenario({ training: { days: 0.125 }, policies: ["synchronous", "ftHsdp", "inMemory"] });
    expect(derived(s).expectedFailures).toBeLessThan(LONG_RUN_MIN_FAILURES);
    const cf = closedFormsOf(s);
    for (const v of [
      cf.syncRenewal,
      cf.ftFirstOrder,
      cf.poissonNoRollback,
      ...Object.values(cf.policies ?? {}),
    ]) {
      expect(v?.value).toBeNull();
      expect(v?.note).toMatch(
        /^a long-run rate: shown from 100 expected failures in the horizon \(here 10\)/,
      );
    }
  });

  it("the forms that show a number say they are long-run rates", () => {
    const cf = closedFormsOf(parseScenario({}));
    for (const v of [cf.syncRenewal, cf.ftFirstOrder, cf.poissonNoRollback])
      expect(v.note).toMatch(/^long-run/);
  });

  it("the fixed preset: the simulation reads above the long-run rate by no more than the note says", () => {
    const s = parseScenario(presetById("headline-fixed")?.scenario ?? {});
    const cf = closedFormsOf(s).fixedArrivals;
    const run = monteCarlo(s, 1);
    for (const key of ["synchronous", "ftHsdp"] as const) {
      const form = cf[key];
      const bound = Number(form.note.match(/reads up to ([\d.]+) point higher/)?.[1]) / 100;
      expect(form.note).toMatch(/^long-run rate, /);
      const gap = run[key]!.ettr.mean - (form.value ?? 0);
      expect(gap, key).toBeGreaterThanOrEqual(0);
      expect(gap, key).toBeLessThanOrEqual(bound);
    }
  });
});
