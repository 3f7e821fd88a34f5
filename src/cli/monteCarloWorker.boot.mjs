// Entry of a Monte Carlo worker thread. Node 20 does not pass the CLI's tsx loader on to a worker
// thread, so this plain-JavaScript entry registers tsx in the worker, then loads the TypeScript.
// Used when the CLI runs from TypeScript (tests, tsx); `npm run sim` runs the bundle that
// scripts/sim.mjs builds, where a file of this name is the bundled worker.
import { register } from "tsx/esm/api";

register();
await import("./monteCarloWorker.ts");
