/** `npm run sim -- FILE --failures-csv OUT`: the run's failures as a log that replays to the same numbers. */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { replayLogFromRunCsv, replayScenarioFromEvents } from "../sim/failures/replayLog.ts";
import { parseScenario } from "../sim/scenario/index.ts";
import { simCommand } from "./simCommand.ts";

const dir = mkdtempSync(join(tmpdir(), "sim-failures-csv-"));
const scenario = {
  seed: 3,
  policies: ["synchronous", "ftHsdp", "hotSpare"],
  cluster: { gpus: 256, gpusPerHost: 8, replicas: 4, hostsPerRack: 4 },
  training: { days: 2 },
  failures: {
    perHostDay: 0.3,
    causes: [
      { name: "GPU", share: 3, scope: "host" },
      { name: "rack", share: 1, scope: "rack" },
    ],
  },
};

describe("--failures-csv", () => {
  it("writes the run's failures; replaying them prints the run's numbers", async () => {
    const file = join(dir, "s.json");
    const out = join(dir, "run.csv");
    writeFileSync(file, JSON.stringify(scenario));
    const run = await simCommand([file, "--json", "--failures-csv", out]);
    expect(run.code, run.stderr).toBe(0);
    const csv = readFileSync(out, "utf8");
    expect(csv.split("\r\n")[0]).toBe("time,host,cause");
    const s = parseScenario(scenario);
    const replay = replayScenarioFromEvents(s, replayLogFromRunCsv(s, csv));
    const replayFile = join(dir, "replay.json");
    writeFileSync(replayFile, JSON.stringify(replay));
    const again = await simCommand([replayFile, "--json"]);
    const numbers = (text: string) => {
      const { scenario: _s, closedForm: _c, ...rest } = JSON.parse(text);
      return rest;
    };
    expect(numbers(again.stdout)).toEqual(numbers(run.stdout));
  });

  it("is refused with more than one seed, by name", async () => {
    const r = await simCommand(["x.json", "--seeds", "5", "--failures-csv", join(dir, "x.csv")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--failures-csv writes one run's failures: it needs --seeds 1, got --seeds 5/);
  });
});
