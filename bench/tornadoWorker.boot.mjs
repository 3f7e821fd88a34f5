// Entry of a tornado bench worker thread: registers tsx (Node 20 does not pass the loader on to a
// worker thread), then loads the TypeScript.
import { register } from "tsx/esm/api";

register();
await import("./tornadoWorker.ts");
