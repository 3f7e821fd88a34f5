/**
 * A trace the importer refuses, by kind, so the page and the command line can both name it:
 * `gzip` (a broken or cut-off .gz), `truncated` (the JSON stops early), `notTrace` (not a
 * profiler trace), `tooLarge` (past the size bound), `duplicateRank`, `differentJobs`.
 */
export type TraceErrorKind =
  | "gzip"
  | "truncated"
  | "notTrace"
  | "tooLarge"
  | "duplicateRank"
  | "differentJobs";

export class TraceError extends Error {
  override name = "TraceError";
  constructor(
    readonly kind: TraceErrorKind,
    message: string,
  ) {
    super(message);
  }
}

/** Files past this are refused before any work: 1 GiB, as the issue bounds it. */
export const MAX_TRACE_BYTES = 1024 * 1024 * 1024;
