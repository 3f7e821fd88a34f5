/**
 * A worker thread of the CLI's Monte Carlo (parallelMonteCarlo.ts): says it is ready, then runs
 * each slice it is sent and sends back the packed rows (the buffer is transferred, not copied).
 */
import { parentPort, workerData } from "node:worker_threads";
import type { Scenario } from "../sim/scenario.ts";
import { type Chunk, runChunk } from "./monteCarloChunk.ts";

const port = parentPort;
if (port) {
  const scenario = (workerData as { scenario: Scenario }).scenario;
  port.on("message", (chunk: Chunk) => {
    const rows = runChunk(scenario, chunk);
    port.postMessage({ ...chunk, rows }, [rows.buffer]);
  });
  port.postMessage("ready");
}
