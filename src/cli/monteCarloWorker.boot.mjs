// Entry of a Monte Carlo worker thread. Node 20 does not pass the CLI's tsx loader on to a worker
// thread, so this plain-JavaScript entry registers tsx in the worker, then loads the TypeScript.
import { register } from "tsx/esm/api";

register();
await import("./monteCarloWorker.ts");
