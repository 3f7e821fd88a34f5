/** A bench worker thread: runs the page worker's clusterEttrRuns on each request and sends the arrays back. */
import { parentPort } from "node:worker_threads";
import type { Scenario } from "../src/sim/scenario/index.ts";
import { clusterApi } from "../src/worker/clusterApi.ts";

const port = parentPort;
if (port) {
  port.on("message", (m: { id: number; scenario: Scenario; from: number; count: number }) => {
    const out = clusterApi.clusterEttrRuns(m.scenario, m.from, m.count);
    port.postMessage(
      { id: m.id, out },
      Object.values(out).flatMap((a) => (a ? [a.buffer as ArrayBuffer] : [])),
    );
  });
  port.postMessage("ready");
}
