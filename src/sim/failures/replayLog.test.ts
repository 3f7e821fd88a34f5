/**
 * §5's strongest test: a run's own failures, exported as a log and replayed, give that run's
 * numbers bit for bit under every policy — drawn and replayed failures go through one engine.
 */
import { describe, expect, it } from "vitest";
import { V3_POLICIES } from "../../testing/scenario.arbitrary.ts";
import { runScenario } from "../engine.ts";
import { McStream } from "../monteCarlo/mcStream.ts";
import { parseScenario, type Scenario } from "../scenario/index.ts";
import type { RunResult } from "../types.ts";
import { generateFailureTrace } from "./failureTrace.ts";
import {
  replayIsOneRun,
  replayLogFromRunCsv,
  replayLogOfRun,
  replayScenarioFromEvents,
  runFailuresCsv,
} from "./replayLog.ts";

const all = [...V3_POLICIES];
const drawn: [string, unknown][] = [
  [
    "version 1, hangs",
    {
      policies: all,
      cluster: { gpus: 256, gpusPerHost: 8, replicas: 8 },
      training: { days: 3 },
      failures: { perHostDay: 0.4, hangFraction: 0.3 },
    },
  ],
  [
    "racks, striped, hangs and job scope, limited spares",
    {
      policies: all,
      cluster: { gpus: 512, gpusPerHost: 8, replicas: 8, hostsPerRack: 4, placement: "striped" },
      training: { days: 4 },
      failures: {
        perHostDay: 0.2,
        arrivals: "weibull",
        weibullShape: 0.6,
        causes: [
          { name: "GPU", share: 5, scope: "host" },
          { name: "NCCL hang", share: 2, scope: "host", hang: true, newHost: false },
          { name: "ToR, switch", share: 1, scope: "rack" },
          { name: "bug", share: 1, scope: "job" },
        ],
      },
      ft: { hangTimeoutSeconds: 60, checkpointMinutes: 30, checkpointWriteSeconds: 20 },
      sync: { checkpointMinutes: 60, checkpointWriteSeconds: 30 },
      spares: { pool: "limited", hosts: 2, repairHours: 6 },
    },
  ],
  [
    "packed racks, lemons, lognormal repairs",
    {
      policies: all,
      cluster: { gpus: 384, gpusPerHost: 8, replicas: 6, hostsPerRack: 2 },
      training: { days: 5 },
      failures: {
        perHostDay: 0.3,
        badHosts: { share: 0.25, factor: 6 },
        causes: [
          { name: "host", share: 3, scope: "host" },
          { name: "rack", share: 1, scope: "rack", hang: true },
        ],
      },
      spares: { pool: "limited", hosts: 1, repairHours: 12, repairLaw: "lognormal", repairSigma: 1.5 },
      hotSpare: { standbys: 1 },
    },
  ],
  [
    "fixed arrivals",
    {
      policies: all,
      cluster: { gpus: 128, gpusPerHost: 8, replicas: 4 },
      training: { days: 2 },
      failures: { perHostDay: 0.5, arrivals: "fixed" },
    },
  ],
];

/** Every policy's metrics and recording: everything of a run but the scenario and the closed forms. */
function numbers(r: RunResult): unknown {
  const { scenario: _s, closedForm: _c, ...rest } = r;
  return rest;
}

describe("a run's failures, replayed", () => {
  for (const [name, input] of drawn) {
    it(`equal the run bit for bit under every policy: ${name}`, () => {
      const s: Scenario = parseScenario(input);
      for (const seed of [1, 7]) {
        const run = runScenario(s, { seed, record: true });
        const failures = run.trace!.failures;
        expect(failures.time.length, "the run has failures to replay").toBeGreaterThan(5);
        // Through the CSV a person downloads, and through the event list.
        const fromCsv = replayLogFromRunCsv(s, runFailuresCsv(s, failures));
        expect(fromCsv).toEqual(replayLogOfRun(s, failures));
        const replay = replayScenarioFromEvents(s, fromCsv);
        expect(replay.failures.arrivals).toBe("log");
        const again = runScenario(replay, { seed, record: true });
        expect(numbers(again)).toEqual(numbers(run));
      }
    });
  }

  it("every seed replays the same failures (fixed repairs)", () => {
    const s = parseScenario(drawn[1]![1]);
    const replay = replayScenarioFromEvents(
      s,
      replayLogOfRun(s, runScenario(s, { record: true }).trace!.failures),
    );
    const a = runScenario(replay, { seed: 1 });
    const b = runScenario(replay, { seed: 99 });
    expect(numbers(b)).toEqual(numbers(a));
  });

  it("a replay with fixed repairs is one run, not a band; lognormal repairs from a limited pool still vary", () => {
    const s = parseScenario(drawn[1]![1]);
    const replay = replayScenarioFromEvents(
      s,
      replayLogOfRun(s, runScenario(s, { record: true }).trace!.failures),
    );
    expect(replayIsOneRun(replay)).toBe(true);
    expect(new McStream(replay, { precision: 0.5, cap: 400 }).settings.cap).toBe(1);
    expect(replayIsOneRun(s)).toBe(false);
    const lognormal = parseScenario({
      ...replay,
      version: undefined,
      spares: { ...replay.spares, repairLaw: "lognormal" },
    });
    expect(replayIsOneRun(lognormal)).toBe(false);
    expect(numbers(runScenario(lognormal, { seed: 2 }))).not.toEqual(
      numbers(runScenario(lognormal, { seed: 3 })),
    );
  });

  it("an event's hosts struck as separate runs act as one failure (only the failure count tells)", () => {
    const base = parseScenario({
      policies: all,
      cluster: { gpus: 128, gpusPerHost: 8, replicas: 4 },
      training: { days: 1 },
      sync: { checkpointMinutes: 30, checkpointWriteSeconds: 10 },
      spares: { pool: "limited", hosts: 1 },
    });
    const at = (events: number[][]) =>
      runScenario(replayScenarioFromEvents(base, { hosts: 16, days: 1, events }), { record: true });
    // Hosts 0–3 in one run (one row) against 0, 1 and 3, 2 given apart in two runs of rows.
    const one = at([
      [5000, 0, 0, 1, 2, 3],
      [40_000, 1, 9],
    ]);
    const split = at([
      [5000, 0, 3, 0, 2, 1],
      [40_000, 1, 9],
    ]);
    expect(one.trace!.failures.time.length).toBe(2);
    const rows = replayLogOfRun(base, split.trace!.failures).events.length;
    expect(rows).toBe(2);
    for (const k of all) {
      expect(split[k]!.ettr, k).toBe(one[k]!.ettr);
      expect(split[k]!.badput, k).toEqual(one[k]!.badput);
    }
    // Non-adjacent hosts: rows per run at one instant, the same time lost as a run's order.
    const apart = at([
      [5000, 0, 0, 5, 10],
      [40_000, 1, 9],
    ]);
    const apartOrder = at([
      [5000, 0, 10, 0, 5],
      [40_000, 1, 9],
    ]);
    expect(apart.trace!.failures.time.length).toBe(4);
    for (const k of all) expect(apartOrder[k]!.ettr, k).toBe(apart[k]!.ettr);
  });

  it("a replay's trace has the log's rows, whatever the seed and lemon settings", () => {
    const s = parseScenario({
      cluster: { gpus: 128, gpusPerHost: 8, replicas: 4 },
      training: { days: 1 },
      failures: {
        arrivals: "log",
        badHosts: { share: 0.5, factor: 10 },
        log: {
          hosts: 16,
          days: 2,
          events: [
            [10, 0, 4],
            [20, 1, 7, 8],
            [90_000, 0, 1],
          ],
        },
      },
    });
    const t = generateFailureTrace(s, 5);
    // The last event is past the one-day horizon.
    expect(Array.from(t.time.subarray(0, t.count))).toEqual([10, 20]);
    expect([t.host[1], t.hostCount[1], t.hang[1]]).toEqual([7, 2, 1]);
  });
});
