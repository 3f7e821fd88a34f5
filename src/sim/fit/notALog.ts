/**
 * Files given to the failure-log import that are something else, recognised from their first
 * bytes and named with where they go: a gzip (by its magic number, 1f 8b), and inside it or as
 * plain text a PyTorch profiler trace (a `traceEvents` list, Kineto's `schemaVersion`, or the old
 * chrome-trace array of `"ph"` events). The log parser would read a gzip's bytes as a CSV header
 * ('line 1: unknown column "\u001f…"').
 */
import { Gunzip } from "fflate";

/** The bytes looked at: a trace names its events within its first few hundred bytes. */
export const HEAD_BYTES = 64 << 10;

const TRACE_SIGNS = /"traceEvents"\s*:|"schemaVersion"\s*:|^\s*\[\s*\{\s*"(?:ph|name|pid|tid|ts|cat)"\s*:/;

function gunzipHead(head: Uint8Array): string | null {
  const parts: Uint8Array[] = [];
  let total = 0;
  try {
    const g = new Gunzip((chunk) => {
      if (total < HEAD_BYTES) parts.push(chunk.subarray(0, HEAD_BYTES - total));
      total += chunk.length;
    });
    // A head cut anywhere inflates as far as it goes; a broken one says nothing.
    for (let at = 0; at < head.length && total < HEAD_BYTES; at += 1024) g.push(head.subarray(at, at + 1024));
  } catch {
    if (total === 0) return null;
  }
  const out = new Uint8Array(Math.min(total, HEAD_BYTES));
  let at = 0;
  for (const p of parts) {
    out.set(p.subarray(0, out.length - at), at);
    at += p.length;
    if (at >= out.length) break;
  }
  return ascii(out);
}

/** The bytes as text, one character a byte: the signs looked for are ASCII (no decoder here). */
function ascii(bytes: Uint8Array): string {
  const parts: string[] = [];
  for (let at = 0; at < bytes.length; at += 4096) {
    let s = "";
    const end = Math.min(bytes.length, at + 4096);
    for (let i = at; i < end; i++) s += String.fromCharCode(bytes[i] as number);
    parts.push(s);
  }
  return parts.join("");
}

const TRACE_WHERE =
  "open it in the One step view's Trace panel (Trace: measure your own step), which reads Kineto .json and .json.gz traces";

/** What the file is and where it goes, when it is not a failure log; null when it may be one. */
export function notALog(head: Uint8Array, name: string): string | null {
  const shown = name.length > 80 ? `${name.slice(0, 77)}…` : name;
  if (head[0] === 0x1f && head[1] === 0x8b) {
    const text = gunzipHead(head);
    if (text !== null && TRACE_SIGNS.test(text.replace(/^\xEF\xBB\xBF/, ""))) {
      return `${shown} is a gzip-compressed PyTorch profiler trace, not a failure log: ${TRACE_WHERE}`;
    }
    return `${shown} is gzip-compressed: the failure log is read as plain text (CSV or JSON); unpack it first (gunzip ${shown})`;
  }
  const text = ascii(head.subarray(0, 4096)).replace(/^\xEF\xBB\xBF/, "");
  if (TRACE_SIGNS.test(text))
    return `${shown} is a PyTorch profiler trace, not a failure log: ${TRACE_WHERE}`;
  return null;
}
