/** The fit worker's endpoint: reads the file here, off the main thread, then fits it (src/sim/fit). */
import { type FitOutcome, type FitPhase, type FitRequest, fitText } from "../sim/fit/fitFile.ts";
import { HEAD_BYTES, notALog } from "../sim/fit/notALog.ts";
import { checkLogSize } from "../sim/fit/parseLog.ts";
import type { LogError } from "../sim/fit/types.ts";

export const fitApi = {
  async fitFile(file: Blob, req: FitRequest, onPhase: (p: FitPhase) => void): Promise<FitOutcome> {
    try {
      // The bound before reading: a 2 GB file is refused without being read.
      checkLogSize(file.size);
    } catch (e) {
      return { ok: false, message: (e as LogError).message };
    }
    onPhase("reading");
    // A gzip or a profiler trace is named, with where it goes, before being read as a log.
    const other = notALog(new Uint8Array(await file.slice(0, HEAD_BYTES).arrayBuffer()), req.name);
    if (other !== null) return { ok: false, message: other };
    const text = await file.text();
    return fitText(text, req, onPhase);
  },
};
