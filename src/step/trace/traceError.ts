/**
 * A trace the importer refuses, by kind, so the page and the command line can both name it:
 * `gzip` (a broken or cut-off .gz), `truncated` (the JSON stops early), `notTrace` (not a
 * profiler trace), `tooLarge` (past the size bound), `badRank` (a rank or world size no job can
 * have), `duplicateRank`, `differentJobs`.
 */
export type TraceErrorKind =
  | "gzip"
  | "truncated"
  | "notTrace"
  | "tooLarge"
  | "badRank"
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

/** Files past this are refused before any work: 1 GiB. */
export const MAX_TRACE_BYTES = 1024 * 1024 * 1024;

/**
 * The largest world size a trace may state: a million ranks, ten times the largest jobs run
 * (~100K GPUs). Past it the figure is a typo or a crafted file, not a job.
 */
export const MAX_WORLD_SIZE = 1_000_000;

/**
 * Refuses, by name, a rank or world size no job can have: a world size that is not a whole
 * number from 1 to MAX_WORLD_SIZE, a rank that is not a whole number from 0 to world size − 1
 * (to MAX_WORLD_SIZE − 1 when the world size is unknown). `where` says where the figure was read.
 */
export function checkRankFigures(rank: number | null, worldSize: number | null, where: string): void {
  const whole = (x: number) => Number.isInteger(x);
  if (worldSize !== null && !(whole(worldSize) && worldSize >= 1 && worldSize <= MAX_WORLD_SIZE)) {
    throw new TraceError(
      "badRank",
      `${where} world_size is ${worldSize}: a world size is a whole number from 1 to ${MAX_WORLD_SIZE.toLocaleString("en-US")}`,
    );
  }
  const top = worldSize ?? MAX_WORLD_SIZE;
  if (rank !== null && !(whole(rank) && rank >= 0 && rank < top)) {
    throw new TraceError(
      "badRank",
      `${where} rank is ${rank}: a rank is a whole number from 0 to ${(top - 1).toLocaleString("en-US")}${worldSize === null ? "" : ` (world size ${worldSize})`}`,
    );
  }
}
