import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fitJson } from "../sim/fit/fitJson.ts";
import { fitLog } from "../sim/fit/fitLog.ts";
import { fittedScenario } from "../sim/fit/fitScenario.ts";
import { parseLog } from "../sim/fit/parseLog.ts";
import { drawnLog, logCsv, logEventList } from "../testing/engineLog.ts";

function runFit(...args: string[]) {
  const r = spawnSync(process.execPath, ["--import", "tsx", join(import.meta.dirname, "fit.ts"), ...args], {
    encoding: "utf8",
    timeout: 25_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function tempFile(text: string, name = "log.json"): string {
  const path = join(mkdtempSync(join(tmpdir(), "fit-cli-")), name);
  writeFileSync(path, text);
  return path;
}

/** An engine-drawn year of a 400-host fleet, bursty (k = 0.6), with three causes and repairs. */
const drawn = drawnLog(
  {
    cluster: { gpus: 3200, gpusPerHost: 8, replicas: 4 },
    training: { days: 348 },
    failures: {
      perHostDay: 0.004,
      arrivals: "weibull",
      weibullShape: 0.6,
      causes: [
        { name: "GPU", share: 3, scope: "host", hang: false, newHost: true },
        { name: "NIC", share: 1, scope: "host", hang: false, newHost: true },
      ],
    },
  },
  5,
);
const repair = (i: number) => 6 + (i % 7) * 9;
const eventList = tempFile(logEventList(drawn, repair));

const KEYS = [
  "events",
  "bursts",
  "hosts",
  "days",
  "perHostDay",
  "faultsPerHostDay",
  "multiHostBurstShare",
  "arrivals",
  "causes",
  "repairs",
  "hostsDispersion",
  "badHosts",
  "drift",
  "scenario",
];

describe("npm run fit", { timeout: 30_000 }, () => {
  it("--json prints exactly the keys listed, the figures the library computes", () => {
    const r = runFit(eventList, "--hosts", "400", "--json");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(KEYS);
    expect(Object.keys(out.arrivals as object)).toEqual(["chosen", "weibull", "aic"]);
    expect(Object.keys(out.repairs as object)).toEqual([
      "medianHours",
      "meanHours",
      "p90Hours",
      "open",
      "lognormal",
    ]);
    expect(Object.keys(out.badHosts as object)).toEqual(["share", "factor", "aicOne", "aicTwo", "chosen"]);
    const f = fitLog(parseLog(logEventList(drawn, repair)), { hosts: 400 });
    expect(out).toEqual(
      JSON.parse(JSON.stringify(fitJson(f, fittedScenario(f, "Fitted to log.json").scenario))),
    );
    expect(out.events).toBe(drawn.starts.length);
  });

  it("--scenario prints the fitted scenario file", () => {
    const r = runFit(eventList, "--scenario");
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout) as {
      failures: { arrivals: string; causes: { name: string }[] };
      spares: { repairLaw: string };
    };
    expect(s.failures.arrivals).toBe("weibull");
    expect(s.failures.causes.map((c) => c.name)).toEqual(["GPU", "NIC"]);
    expect(s.spares.repairLaw).toBe("lognormal");
  });

  it("reads a CSV in seconds and prints the figures as text", () => {
    const r = runFit(
      tempFile(logCsv(drawn), "log.csv"),
      "--unit",
      "seconds",
      "--hosts",
      "400",
      "--days",
      "348",
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^log\.csv: a CSV of time,host,cause\n/);
    expect(r.stdout).toMatch(/Weibull chosen/);
    expect(r.stdout).toMatch(/bursty: after one failure the next comes sooner than at random/);
    expect(r.stdout).toMatch(/not estimated — repairs: no fault end closes a fault start/);
  });

  it("the plain report ends with the way on: the same command with --scenario, into npm run sim", () => {
    const r = runFit(eventList, "--hosts", "400");
    expect(r.code).toBe(0);
    const last = r.stdout.trimEnd().split("\n").at(-1) ?? "";
    expect(last).toBe(
      `to simulate this fleet: npm run fit -- ${eventList} --hosts 400 --scenario > fitted.json, then npm run sim -- fitted.json`,
    );
    // The command it names prints the scenario file.
    const s = runFit(eventList, "--hosts", "400", "--scenario");
    expect(JSON.parse(s.stdout).failures.arrivals).toBe("weibull");
  });

  it("--help prints the usage and every option", () => {
    const r = runFit("--help");
    expect(r.code).toBe(0);
    for (const flag of ["--hosts", "--days", "--label", "--unit", "--burst-seconds", "--json", "--scenario"])
      expect(r.stdout).toContain(flag);
  });

  it.each([
    ["no arguments", () => [], /^fit: usage: npm run fit -- <log>/],
    [
      "a missing file",
      () => ["/nonexistent/log.json"],
      /^fit: cannot read log file \/nonexistent\/log.json: no such file/,
    ],
    ["a bad --hosts", () => [eventList, "--hosts", "0"], /^fit: --hosts needs a whole number of hosts/],
    [
      "a bad --unit",
      () => [eventList, "--unit", "weeks"],
      /^fit: --unit needs days, hours or seconds, got "weeks"/,
    ],
    [
      "an unknown label",
      () => [eventList, "--label", "Colour"],
      /^fit: label: "Colour" is not a label of this log; it has Level, Class, Desc/,
    ],
    [
      "an event with a control character",
      () => [tempFile('[{"node_id":"a\\u001b[31m","event_time":1,"event_type":"fault_start"}]')],
      /^fit: event 1: node_id "a\\u001b\[31m" holds a control character/,
    ],
    [
      "too few hosts",
      () => [eventList, "--hosts", "3"],
      /^fit: hosts: got 3, but the log names \d+ distinct hosts/,
    ],
  ])("exits 2 with one line on stderr for %s", (_what, argsOf: () => string[], message) => {
    const r = runFit(...argsOf());
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
  });
});
