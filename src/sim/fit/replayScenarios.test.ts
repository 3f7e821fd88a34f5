import { describe, expect, it } from "vitest";
import { runScenario } from "../engine.ts";
import { DEFAULT_SCENARIO, derived, parseScenario } from "../scenario/index.ts";
import { fitText } from "./fitFile.ts";
import { nthPercentile, ordinal, placeAmong } from "./replayPercentile.ts";
import { isModelOf, nearestDivisor, onLogFleet, replayPair } from "./replayScenarios.ts";

const DAY = 86_400;
/** Two hosts of a ten-host fleet fail over 20 days, one of them twice; one fault has an end. */
const CSV = "time,host,cause,end\n0,3,GPU,0.5\n4,7,NIC,\n9.5,3,GPU,\n20,1,GPU,\n";

function fitted(text = CSV, hosts = 10) {
  const o = fitText(text, { unit: "days", name: "fleet.csv", hosts });
  if (!o.ok) throw new Error(o.message);
  return o;
}

describe("the replay and its model on the log's fleet", () => {
  it("reshapes the cluster to the log's hosts: GPUs per host kept, replicas and racks the nearest divisors", () => {
    expect(nearestDivisor(400, 12)).toBe(10);
    expect(nearestDivisor(7, 3)).toBe(1);
    const base = parseScenario({ cluster: { gpus: 98_304, gpusPerHost: 8, replicas: 12, hostsPerRack: 16 } });
    const fleet = parseScenario(onLogFleet(base, 400, 348.5));
    expect(derived(fleet).hosts).toBe(400);
    expect(fleet.cluster).toMatchObject({ gpus: 3200, gpusPerHost: 8, replicas: 10, hostsPerRack: 16 });
    expect(fleet.training.days).toBe(348.5);
    // A longer log: the model's horizon stops at its 365 days.
    expect(onLogFleet(base, 400, 500).training.days).toBe(365);
  });

  it("a cluster with the log's hosts already keeps its shape", () => {
    const base = parseScenario({ cluster: { gpus: 80, gpusPerHost: 8, replicas: 5, hostsPerRack: 2 } });
    expect(onLogFleet(base, 10, 20).cluster).toBe(base.cluster);
  });

  it("the model is the fit on that fleet; the replay is the model with the log's failures", () => {
    const o = fitted();
    if (!o.replay.ok) throw new Error(o.replay.why);
    const { model, replay } = replayPair(DEFAULT_SCENARIO, o.scenario, o.replay.log);
    expect(derived(model).hosts).toBe(10);
    expect(model.training.days).toBe(20 + 1 / DAY);
    expect(model.failures.perHostDay).toBe(o.scenario.failures.perHostDay);
    expect(model.failures.causes.map((c) => c.name)).toEqual(["GPU", "NIC"]);
    expect(replay.failures.arrivals).toBe("log");
    expect(replay.failures.log.events).toEqual([
      [0, 0, 3],
      [4 * DAY, 1, 7],
      [9.5 * DAY, 0, 3],
      [20 * DAY, 0, 1],
    ]);
    // Everything but the arrivals is the model's.
    expect({ ...replay.failures, arrivals: model.failures.arrivals, log: model.failures.log }).toEqual(
      model.failures,
    );
    expect(replay.cluster).toEqual(model.cluster);
    expect(replay.spares).toEqual(model.spares);
    // The page calls the pinned baseline "the model" only when it is this replay's model.
    expect(isModelOf(model, replay)).toBe(true);
    expect(isModelOf(replay, replay)).toBe(false);
    expect(isModelOf({ ...model, training: { ...model.training, days: 10 } }, replay)).toBe(false);
    expect(isModelOf({ ...model, failures: { ...model.failures, perHostDay: 0.01 } }, replay)).toBe(false);
    // The replay strikes exactly the log's four failures.
    const run = runScenario(replay);
    for (const p of replay.policies) expect(run[p]!.failures).toBe(4);
  });

  it("a fleet too large for the model is refused by field, before anything is built", () => {
    const o = fitted(CSV, 200_000);
    const r = o.replay;
    if (!r.ok) throw new Error(r.why);
    expect(() => replayPair(DEFAULT_SCENARIO, o.scenario, r.log)).toThrow(/cluster\.gpus/);
  });

  it("a counts table has nothing to replay, and says so", () => {
    const o = fitText('{"gpus": 16384, "gpusPerHost": 8, "days": 54, "causes": {"GPU": 100}}', {
      unit: "days",
      name: "llama.json",
    });
    expect(o.ok && o.replay).toEqual({ ok: false, why: "a counts table has no times or hosts to replay" });
  });

  it("a log of more failures than a replay takes is refused by field, the fit still shown", () => {
    const rows = Array.from({ length: 20_001 }, (_, i) => `${i},${i % 50},GPU`);
    const o = fitText(`time,host,cause\n${rows.join("\n")}\n`, { unit: "seconds", name: "big.csv" });
    expect(o.ok).toBe(true);
    expect(o.ok && !o.replay.ok && o.replay.why).toMatch(/^failures\.log\.events: .*20,001.*20,000/);
  });
});

describe("where the replay falls among the model's runs", () => {
  it("the mid-rank percentile", () => {
    expect(placeAmong([0.5, 0.6, 0.7, 0.8], 0.65)).toEqual({ percentile: 50, below: 2, equal: 0, runs: 4 });
    expect(placeAmong([0.5, 0.6, 0.7, 0.8], 0.4)?.percentile).toBe(0);
    expect(placeAmong([0.5, 0.6, 0.7, 0.8], 0.9)?.percentile).toBe(100);
    expect(placeAmong([0.7, 0.7], 0.7)?.percentile).toBe(50);
    expect(placeAmong([0.5, 0.7, 0.9, 1], 0.7)?.percentile).toBe(37.5);
    expect(placeAmong([], 0.7)).toBeNull();
  });

  it("never the 0th or the 100th while a run lies on the other side", () => {
    const runs = Array.from({ length: 300 }, (_, i) => i);
    expect(nthPercentile(placeAmong(runs, -1)!)).toBe("0th");
    expect(nthPercentile(placeAmong(runs, 0)!)).toBe("1st");
    expect(nthPercentile(placeAmong(runs, 36.5)!)).toBe("12th");
    expect(nthPercentile(placeAmong(runs, 299)!)).toBe("99th");
    expect(nthPercentile(placeAmong(runs, 300)!)).toBe("100th");
  });

  it("ordinals", () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 50, 100, 0].map(ordinal)).toEqual([
      "1st",
      "2nd",
      "3rd",
      "4th",
      "11th",
      "12th",
      "13th",
      "21st",
      "22nd",
      "23rd",
      "50th",
      "100th",
      "0th",
    ]);
  });
});
