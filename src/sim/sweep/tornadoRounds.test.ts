import { describe, expect, it } from "vitest";
import { runScenario } from "../engine.ts";
import { seedOf } from "../monteCarlo/monteCarlo.ts";
import { parseScenario, type Scenario } from "../scenario/index.ts";
import { type EttrRuns, planTornado, type TornadoResult } from "./tornado.ts";
import { runTornadoRounds, type TornadoExec } from "./tornadoRounds.ts";

const small = parseScenario({
  cluster: { gpus: 256, gpusPerHost: 8, replicas: 4 },
  failures: { perHostDay: 0.05, hangFraction: 0.2 },
  training: { days: 3 },
});

/** An executor in this thread, answering after a tick so several interleave like workers. */
const exec: TornadoExec = async (s: Scenario, from: number, count: number) => {
  await new Promise((r) => setTimeout(r, 0));
  const out: EttrRuns = {};
  for (const k of s.policies) out[k] = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const r = runScenario(s, { seed: seedOf(s, from + i) });
    for (const k of s.policies) (out[k] as Float64Array)[i] = r[k]?.ettr ?? Number.NaN;
  }
  return out;
};

const noHooks = { cancelled: () => false, onRound: () => {}, onProgress: () => {} };

describe("runTornadoRounds", () => {
  const plan = planTornado(small, 0.5);

  it("gives the same bars whatever the number of workers", async () => {
    const settings = { amount: 0.5, precision: 0.02, maxSeeds: 80 };
    const one = await runTornadoRounds(plan, settings, [exec], noHooks);
    const three = await runTornadoRounds(plan, settings, [exec, exec, exec], noHooks);
    expect(three).toEqual(one);
  });

  it("adds seeds round by round until every bar end is within the precision, or the cap", async () => {
    const rounds: { worst: number; seeds: number }[] = [];
    const precision = 0.004;
    const r = (await runTornadoRounds(plan, { amount: 0.5, precision, maxSeeds: 160 }, [exec, exec], {
      ...noHooks,
      onRound: (res: TornadoResult, seeds: number) => rounds.push({ worst: res.worstHalf, seeds }),
    })) as TornadoResult;
    expect(rounds[0]?.seeds).toBe(20);
    // It stopped either at the precision or at the cap, and not before.
    for (const x of rounds.slice(0, -1)) expect(x.worst).toBeGreaterThan(precision);
    const last = rounds.at(-1);
    expect(last && (last.worst <= precision || last.seeds === 160)).toBe(true);
    // Rows already precise kept their seeds; the others have more.
    expect(Math.max(...r.rows.map((row) => row.seeds))).toBe(last?.seeds);
  });

  it("stops and answers null when cancelled", async () => {
    let ticks = 0;
    const r = await runTornadoRounds(plan, { amount: 0.5, precision: 0.001, maxSeeds: 5000 }, [exec], {
      cancelled: () => ticks > 3,
      onRound: () => {},
      onProgress: () => {
        ticks++;
      },
    });
    expect(r).toBeNull();
  });
});
