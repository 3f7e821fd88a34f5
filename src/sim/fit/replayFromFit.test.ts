import { describe, expect, it } from "vitest";
import { fitLog } from "./fitLog.ts";
import { parseLog } from "./parseLog.ts";
import { replayLogFromFit } from "./replayFromFit.ts";
import type { EventLog } from "./types.ts";

const DAY = 86_400;

describe("a fitted log as a replay log", () => {
  it("one event per burst, its time from the first timestamp, its hosts, its cause's index", () => {
    const log = parseLog("time,host,cause,end\n1,b,NIC,\n1,a,NIC,\n2,a,GPU,3\n2.5,c,GPU,\n") as EventLog;
    const fit = fitLog(log, { hosts: 5 });
    // Causes by share: GPU (2), NIC (2) in first-seen order of equal counts: NIC first.
    expect(fit.causes.map((c) => c.name)).toEqual(["NIC", "GPU"]);
    const { log: replay } = replayLogFromFit(log, fit);
    // Names b, a, c are numbered by appearance: b 0, a 1, c 2.
    expect(replay.events).toEqual([
      [0, 0, 0, 1],
      [DAY, 1, 1],
      [1.5 * DAY, 1, 2],
    ]);
    expect(replay.hosts).toBe(5);
    expect(replay.days).toBe(2);
  });

  it("hosts named 0 … H − 1 keep their numbers (a run's own export)", () => {
    const log = parseLog("time,host,cause\n10,7,fail-stop\n20,3,fail-stop\n", {
      unit: "seconds",
    }) as EventLog;
    const { log: replay } = replayLogFromFit(log, fitLog(log, { hosts: 8 }));
    expect(replay.events).toEqual([
      [0, 0, 7],
      [10, 0, 3],
    ]);
    // The last failure at the window's end: the window grows by a second to hold it.
    expect(replay.days).toBe(11 / DAY);
  });

  it("a merged label points at other; a job-wide line is left out and counted", () => {
    const rows = Array.from({ length: 40 }, (_, i) => `${i},h${i},c${i}`);
    const log = parseLog(`time,host,cause\n${rows.join("\n")}\n40,,c0\n`, { unit: "seconds" }) as EventLog;
    const fit = fitLog(log);
    const { log: replay, jobWideLeftOut } = replayLogFromFit(log, fit);
    expect(jobWideLeftOut).toBe(1);
    expect(replay.events).toHaveLength(40);
    expect(fit.causes[31]!.name).toBe("other");
    expect(replay.events[39]![1]).toBe(31);
  });
});
