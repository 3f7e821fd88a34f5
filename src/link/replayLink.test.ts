/** §5: a replay scenario's link carries its log compactly, bit for bit, up to 64 KB; a bigger one is refused by name. */
import { describe, expect, it } from "vitest";
import { runScenario } from "../sim/engine.ts";
import { replayLogOfRun, replayScenarioFromEvents } from "../sim/failures/replayLog.ts";
import { parseScenario } from "../sim/scenario/index.ts";
import { compactEvents, expandEvents, MAX_REPLAY_LINK_CHARS } from "./replayLink.ts";
import {
  decodeScenarioLink,
  decodeScenarioParam,
  encodeScenarioHash,
  encodeScenarioParam,
  scenarioLinkProblem,
} from "./scenarioLink.ts";

const base = parseScenario({
  cluster: { gpus: 512, gpusPerHost: 8, replicas: 8, hostsPerRack: 4 },
  training: { days: 10 },
  failures: {
    perHostDay: 0.2,
    causes: [
      { name: "GPU", share: 3, scope: "host" },
      { name: "rack", share: 1, scope: "rack" },
      { name: "bug", share: 1, scope: "job" },
    ],
  },
});

describe("a replay's link", () => {
  it("compact text gives the events back exactly: deltas that add back, else absolute times; host runs", () => {
    const events = [
      [0.1, 0, 3],
      [0.30000000000000004, 1, 4, 5, 6, 7],
      [12345.678901234567, 2],
      [12345.678901234567, 0, 9, 2, 3],
    ];
    const text = compactEvents(events);
    expect(text).toContain("4~7");
    expect(expandEvents(text)).toEqual(events);
    expect(() => expandEvents("1,0,x")).toThrow(/event 1 has a host that is not an index/);
    expect(() => expandEvents("1,0,0~1000000000")).toThrow(/event 1/);
  });

  it("a run's own log round-trips through a link: same scenario, same numbers", () => {
    const run = runScenario(base, { record: true });
    const replay = replayScenarioFromEvents(base, replayLogOfRun(base, run.trace!.failures));
    expect(replay.failures.log.events.length).toBeGreaterThan(100);
    const param = encodeScenarioParam(replay);
    expect(param.startsWith("3.")).toBe(true);
    const opened = decodeScenarioLink(`http://localhost:4173/${encodeScenarioHash(replay)}`);
    expect(opened).toEqual(replay);
    const again = runScenario(opened!, { record: true });
    expect(again.ftHsdp).toEqual(runScenario(replay).ftHsdp);
    expect(again.synchronous).toEqual(run.synchronous);
    // Compact: fewer characters than the log's JSON (a drawn time's 17 digits do not compress).
    expect(param.length).toBeLessThan(JSON.stringify(replay.failures.log).length * 0.75);
  });

  it("a scenario without a log keeps format 2", () => {
    expect(encodeScenarioParam(base).startsWith("2.")).toBe(true);
  });

  it("a log too big for 64 KB is refused for the link, by name, with the file offered", () => {
    const hosts = 64;
    const big = parseScenario({
      cluster: { gpus: 512, gpusPerHost: 8, replicas: 8 },
      training: { days: 30 },
      failures: {
        arrivals: "log",
        // Irregular times and scattered hosts: nothing for DEFLATE to find.
        log: {
          hosts,
          days: 30,
          events: Array.from({ length: 20_000 }, (_, i) => [
            i * 100 + Math.abs(Math.sin(i * 12.9898)) * 50,
            0,
            (i * 37) % hosts,
            (i * 11 + 5) % hosts,
          ]),
        },
      },
    });
    const problem = scenarioLinkProblem(big);
    expect(problem).toMatch(
      /^The replayed log \(failures\.log\) makes a link of .* characters; links carry at most 65,536: save the scenario file instead\.$/,
    );
    expect(() => decodeScenarioParam(encodeScenarioParam(big))).toThrow(/save the scenario file instead/);
    expect(scenarioLinkProblem(base)).toBeNull();
    expect(MAX_REPLAY_LINK_CHARS).toBe(65_536);
  });
});
