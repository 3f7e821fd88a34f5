import { describe, expect, it } from "vitest";
import { DISPLAY_SETTINGS, settingAllowed } from "../link/displaySettings.ts";
import { encodeScenarioHash } from "../link/scenarioLink.ts";
import { McStream, MIN_RUNS } from "../sim/monteCarlo/mcStream.ts";
import { runChunk } from "../sim/monteCarlo/monteCarlo.ts";
import { parseScenario } from "../sim/scenario/index.ts";
import { simCommand } from "./simCommand.ts";

const small = parseScenario({
  name: "small",
  seed: 7,
  cluster: { gpus: 4096, replicas: 8 },
  training: { days: 2 },
});
const link = encodeScenarioHash(small);

/** Where the page's streaming Monte Carlo stops for these settings (a fraction for the precision). */
function pageStop(precision: number, cap: number): number {
  const stream = new McStream(small, { precision, cap });
  for (let next = stream.next(); next; next = stream.next())
    stream.put(next.index, runChunk(small, next.chunk));
  return stream.runs;
}

const json = async (...args: string[]) => {
  const r = await simCommand([link, "--json", ...args]);
  expect(r.stderr).toBe("");
  return JSON.parse(r.stdout) as { seeds: number };
};

describe("npm run sim --precision / --max-runs (the page's Monte Carlo)", () => {
  it("without --seeds, stops where the page stops, and then prints what --seeds of that count prints", async () => {
    const out = await json("--precision", "1");
    const n = pageStop(0.01, DISPLAY_SETTINGS.mcCap.default);
    expect(n).toBeGreaterThanOrEqual(MIN_RUNS);
    expect(n).toBeLessThan(DISPLAY_SETTINGS.mcCap.default);
    expect(out.seeds).toBe(n);
    expect(out).toEqual(await json("--seeds", String(n)));
  });

  it("a tighter precision runs more seeds; --max-runs caps them, and the table says why it stopped", async () => {
    const loose = (await json("--precision", "2")).seeds;
    const tight = (await json("--precision", "0.05")).seeds;
    expect(tight).toBeGreaterThan(loose);
    expect((await json("--max-runs", "12")).seeds).toBe(12);
    const table = await simCommand([link, "--precision", "0.01", "--max-runs", "12"]);
    expect(table.stdout).toContain("stopped: the cap of 12 runs, before ±0.01 points");
    const reached = await simCommand([link, "--precision", "2"]);
    expect(reached.stdout).toContain(`within ±2 points (95 %) after ${loose} runs`);
  });

  it("--seeds wins over --precision and --max-runs", async () => {
    expect((await json("--seeds", "5", "--precision", "1", "--max-runs", "500")).seeds).toBe(5);
  });

  it("refuses a value outside the table's range by flag, with the table's words, exit 2", async () => {
    const cases: [string, string, "mcPrecision" | "mcCap"][] = [
      ["--precision", "99", "mcPrecision"],
      ["--precision", "0.7000000000000001", "mcPrecision"],
      ["--precision", "1e-1", "mcPrecision"],
      ["--max-runs", "12.5", "mcCap"],
      ["--max-runs", "5", "mcCap"],
    ];
    for (const [flag, value, name] of cases) {
      const r = await simCommand([link, flag, value]);
      expect(r.code, `${flag} ${value}`).toBe(2);
      expect(r.stderr).toContain(`sim: ${flag}: `);
      expect(r.stderr).toContain(settingAllowed(name));
    }
    expect((await simCommand([link, "--precision"])).stderr).toContain("--precision needs a value");
  });
});
