import { describe, expect, it } from "vitest";
import { parseLog } from "./parseLog.ts";
import { type EventLog, LogError } from "./types.ts";

const event = (node: string, days: number, type: string, cls = "GPU") => ({
  node_id: node,
  event_time: days,
  event_type: type,
  fault_type: { Level: "Hardware Failure", Class: cls, Desc: "xid" },
});

const events = (list: unknown[]) => parseLog(JSON.stringify(list)) as EventLog;

function refusal(text: string, unit?: "days" | "hours" | "seconds"): string {
  try {
    parseLog(text, { unit });
  } catch (e) {
    expect(e).toBeInstanceOf(LogError);
    return (e as Error).message;
  }
  throw new Error("not refused");
}

describe("parseLog: formats", () => {
  it("reads an event list: starts and ends sorted by time, days in seconds, labels interned", () => {
    const log = events([
      event("b", 2, "fault_start", "NIC"),
      event("a", 1, "fault_start"),
      event("a", 1.5, "fault_end"),
    ]);
    expect(log.format).toBe("events");
    expect(Array.from(log.startSeconds)).toEqual([86_400, 172_800]);
    expect(log.hostNames).toEqual(["b", "a"]);
    expect(Array.from(log.startHost)).toEqual([1, 0]);
    expect(log.labelKeys).toEqual(["Level", "Class", "Desc"]);
    expect(log.defaultLabel).toBe("Class");
    const classes = log.labelValues[1]!;
    expect(Array.from(log.startLabel[1]!, (i) => classes[i])).toEqual(["GPU", "NIC"]);
    expect(Array.from(log.endSeconds)).toEqual([1.5 * 86_400]);
  });

  it("reads a CSV in any column order, numbers in the chosen unit, an optional end", () => {
    const log = parseLog('host,cause,time,end\nh1,GPU,2,3\nh2,"NIC, port 1",1,\n', {
      unit: "hours",
    }) as EventLog;
    expect(log.format).toBe("csv");
    expect(Array.from(log.startSeconds)).toEqual([3600, 7200]);
    expect(log.labelValues[0]).toEqual(["GPU", "NIC, port 1"]);
    expect(Array.from(log.endSeconds)).toEqual([10_800]);
  });

  it("reads ISO 8601 times as UTC whatever the zone, with or without an offset", () => {
    const log = parseLog(
      "time,host,cause\n2024-03-30T00:00:00,a,x\n2024-03-30T01:00:00+01:00,b,x\n2024-03-31,c,x",
    ) as EventLog;
    const t0 = Date.UTC(2024, 2, 30) / 1000;
    expect(Array.from(log.startSeconds)).toEqual([t0, t0, t0 + 86_400]);
  });

  it("reads a counts table", () => {
    const log = parseLog(
      JSON.stringify({ gpus: 16_384, gpusPerHost: 8, days: 54, causes: { GPU: 148, HBM: 72 } }),
    );
    expect(log).toEqual({
      format: "counts",
      gpus: 16_384,
      gpusPerHost: 8,
      days: 54,
      causes: [
        { name: "GPU", count: 148 },
        { name: "HBM", count: 72 },
      ],
    });
  });
});

describe("parseLog: each error names its line or event and the problem", () => {
  it.each([
    ["not JSON", "[{", /^not JSON/],
    ["not the CSV header", "when,who\n1,a", /^line 1: unknown column "when"/],
    ["a missing column", "time,host\n1,a", /^line 1: no cause column/],
    [
      "unparseable time (CSV)",
      "time,host,cause\n1,a,x\nyesterday,b,x",
      /^line 3: time "yesterday" is not a time/,
    ],
    [
      "mixed times",
      "time,host,cause\n1,a,x\n2024-01-01,b,x",
      /^line 3: time "2024-01-01" is a timestamp where the lines before have numbers/,
    ],
    ["an end before its start", "time,host,cause,end\n5,a,x,4", /^line 2: end "4" is before its start "5"/],
    ["a row with too few cells", "time,host,cause\n1,a", /^line 2: 2 cells where the header names 3/],
    ["an unclosed quote", 'time,host,cause\n1,"a,x', /^line 2: a quoted cell is not closed/],
    [
      "an unknown event type",
      JSON.stringify([event("a", 1, "fault_start"), event("a", 2, "fault_begin")]),
      /^event 2: unknown event_type "fault_begin"/,
    ],
    [
      "unparseable time (events)",
      JSON.stringify([{ ...event("a", 1, "fault_start"), event_time: "soon" }]),
      /^event 1: event_time "soon" is not a time/,
    ],
    [
      "a host id over 200 characters",
      JSON.stringify([event("h".repeat(201), 1, "fault_start")]),
      /^event 1: node_id is 201 characters; at most 200/,
    ],
    ["an event that is not an object", "[1]", /^event 1: not an object/],
    [
      "a counts table without days",
      JSON.stringify({ gpus: 8, gpusPerHost: 8, causes: { a: 1 } }),
      /^counts table: days must be a positive number/,
    ],
  ])("%s", (_what, text, message) => {
    expect(refusal(text)).toMatch(message);
  });

  it("refuses a control character in a host id, echoing it escaped", () => {
    const message = refusal(JSON.stringify([event("a\u001b[2Jb\u009b", 1, "fault_start")]));
    expect(message).toBe(
      'event 1: node_id "a\\u001b[2Jb\\u009b" holds a control character (\\u001b); remove it',
    );
    expect([...message].some((c) => c.charCodeAt(0) < 0x20 || c === "\u009b")).toBe(false);
  });

  it("refuses a control character in a CSV cause, naming the line", () => {
    expect(refusal("time,host,cause\n1,a,ok\n2,b,bad\u0007")).toMatch(
      /^line 3: cause "bad\\u0007" holds a control character/,
    );
  });
});

describe("parseLog: bounds", () => {
  it("refuses more than 1,000,000 events with the bound, before reading them", () => {
    const text = `[${"0,".repeat(1_000_000)}0]`;
    expect(refusal(text)).toBe("the event list has 1,000,001 events; at most 1,000,000 are read");
  });

  it("refuses a CSV of more than 1,000,000 rows at the row past it", () => {
    const text = `time,host,cause\n${"1,a,x\n".repeat(1_000_001)}`;
    expect(refusal(text)).toMatch(/^line 1000002: the log has more than 1,000,000 fault starts and ends/);
  });

  it("refuses a log over 64 MiB with the bound", () => {
    const text = `time,host,cause\n${"x".repeat(64 * 1024 * 1024)}`;
    expect(refusal(text)).toMatch(/^the log is 64\.0 MiB; at most 64 MiB is read$/);
  });
});
