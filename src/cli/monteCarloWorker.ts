/**
 * A worker thread of the CLI's Monte Carlo (parallelMonteCarlo.ts): says it is ready once loaded,
 * takes the scenario (sent first: a worker may start before the scenario is known), then runs
 * each slice it is sent and sends back the packed rows (the buffer is transferred, not copied).
 */
import { parentPort } from "node:worker_threads";
import type { Scenario } from "../sim/scenario/index.ts";
import { type Chunk, runChunk } from "./monteCarloChunk.ts";

const port = parentPort;
if (port) {
  let scenario: Scenario | null = null;
  port.on("message", (m: { scenario: Scenario } | Chunk) => {
    if ("scenario" in m) {
      scenario = m.scenario;
      return;
    }
    if (!scenario) throw new Error("a Monte Carlo slice came before its scenario");
    const rows = runChunk(scenario, m);
    port.postMessage({ ...m, rows }, [rows.buffer]);
  });
  port.postMessage("ready");
}
