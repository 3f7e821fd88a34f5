/**
 * Reading a file named on the command line: only a regular file, only up to a stated size, and
 * never a wait. `readFileSync("/dev/zero")` grows until memory runs out and a FIFO with no writer
 * blocks forever, so the file is opened without blocking (O_NONBLOCK: a FIFO opens at once),
 * checked on the open descriptor (no window between the check and the read), and read into a
 * buffer one byte larger than the limit, so a file that grows meanwhile is still caught.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";
import { echo } from "./echo.ts";
import { firstInvalidUtf8 } from "./utf8.ts";

/** A file the command refuses to read; the message names the file and why, for stderr. */
export class InputFileError extends Error {
  override name = "InputFileError";
}

function kindOf(st: Stats): string {
  if (st.isDirectory()) return "a directory";
  if (st.isFIFO()) return "a FIFO (named pipe)";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "a device";
  if (st.isSocket()) return "a socket";
  return "not a regular file";
}

export function formatBytes(n: number): string {
  return n >= 1024 * 1024 && n % (1024 * 1024) === 0
    ? `${n / (1024 * 1024)} MiB`
    : `${n.toLocaleString("en-US")} bytes`;
}

/**
 * The text of a regular file of at most maxBytes, UTF-8 (anything else is refused, naming the
 * first bad byte's offset), without a leading byte-order
 * mark (some Windows editors write one; JSON does not allow it). `what` names the file in errors.
 */
export function readInputFile(path: string, maxBytes: number, what: string): string {
  const shown = echo(path);
  const only = `only regular files up to ${formatBytes(maxBytes)} are read`;
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT" ? "no such file" : code === "EACCES" ? "permission denied" : (e as Error).message;
    throw new InputFileError(`cannot read ${what} ${shown}: ${why}`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new InputFileError(`cannot read ${what} ${shown}: it is ${kindOf(st)}; ${only}`);
    const tooBig = () =>
      new InputFileError(`cannot read ${what} ${shown}: it is larger than ${formatBytes(maxBytes)}; ${only}`);
    if (st.size > maxBytes) throw tooBig();
    let buf = Buffer.alloc(st.size + 1);
    let length = 0;
    for (;;) {
      if (length === buf.length) {
        // The file grew since fstat: keep reading, but never past the limit.
        const bigger = Buffer.alloc(Math.min(maxBytes + 1, 2 * buf.length));
        buf.copy(bigger, 0, 0, length);
        buf = bigger;
      }
      const n = readSync(fd, buf, length, buf.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > maxBytes) throw tooBig();
    }
    const bad = firstInvalidUtf8(buf, length);
    if (bad >= 0)
      throw new InputFileError(
        `cannot read ${what} ${shown}: it is not UTF-8 (byte ${bad.toLocaleString("en-US")}, 0x${(buf[bad] ?? 0).toString(16).padStart(2, "0")}, starts no valid sequence); save it as UTF-8`,
      );
    const text = buf.toString("utf8", 0, length);
    return text.startsWith("\uFEFF") ? text.slice(1) : text;
  } finally {
    closeSync(fd);
  }
}
