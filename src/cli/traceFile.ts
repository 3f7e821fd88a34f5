/**
 * Reading a trace file named on the command line: a regular file of at most 1 GiB (the bound is
 * checked on the open descriptor before any work), read in 1 MiB pieces and streamed through the
 * gunzip and the JSON reader, so the file is never whole in memory.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { basename } from "node:path";
import { TraceByteReader } from "../step/trace/traceBytes.ts";
import { MAX_TRACE_BYTES, TraceError } from "../step/trace/traceError.ts";
import type { RankTrace } from "../step/trace/traceModel.ts";
import { echo } from "./echo.ts";
import { formatBytes, InputFileError } from "./inputFile.ts";

const CHUNK = 1 << 20;

export function readTraceFile(path: string): RankTrace {
  const shown = echo(path);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputFileError(
      `cannot read trace ${shown}: ${code === "ENOENT" ? "no such file" : (e as Error).message}`,
    );
  }
  try {
    const st = fstatSync(fd);
    const only = `only regular files up to ${formatBytes(MAX_TRACE_BYTES)} are read`;
    if (!st.isFile())
      throw new InputFileError(`cannot read trace ${shown}: it is not a regular file; ${only}`);
    if (st.size > MAX_TRACE_BYTES)
      throw new InputFileError(
        `cannot read trace ${shown}: it is larger than ${formatBytes(MAX_TRACE_BYTES)}; ${only}`,
      );
    const reader = new TraceByteReader(basename(path), new TextDecoder("utf-8"));
    const buf = new Uint8Array(CHUNK);
    let total = 0;
    for (;;) {
      const n = readSync(fd, buf, 0, CHUNK, null);
      if (n === 0) break;
      total += n;
      if (total > MAX_TRACE_BYTES)
        throw new InputFileError(`cannot read trace ${shown}: it grew past ${formatBytes(MAX_TRACE_BYTES)}`);
      reader.push(buf.subarray(0, n));
    }
    return reader.end();
  } catch (e) {
    if (e instanceof TraceError) throw new TraceError(e.kind, `${shown}: ${e.message}`);
    throw e;
  } finally {
    closeSync(fd);
  }
}
