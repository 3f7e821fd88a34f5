/**
 * Format 2: a CSV whose header names `time,host,cause` and optionally `end` (any order). Each
 * row is one fault start; an `end` cell, when filled, is its fault's end (matched to its host's
 * oldest open fault like every end, §5 "Repairs"). Errors name the line (1-based; the header is
 * line 1). Cells may be quoted ("a, b"; "" is a quote), as spreadsheets write them.
 */
import { type CellTime, cellTime, type TimeUnit } from "./csvTime.ts";
import { LogBuilder } from "./logBuilder.ts";
import { quote } from "./quote.ts";
import { type EventLog, LogError } from "./types.ts";

const REQUIRED = ["time", "host", "cause"] as const;
const COLUMNS = [...REQUIRED, "end"];

/** The cells of one line: commas split, double quotes group (a quote inside is doubled). */
export function csvCells(line: string, where: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      cells.push(cell);
      cell = "";
    } else cell += c;
  }
  if (quoted) throw new LogError(`${where}: a quoted cell is not closed`);
  cells.push(cell);
  return cells;
}

function columnsOf(header: string): Record<string, number> {
  const names = csvCells(header, "line 1").map((c) => c.trim().toLowerCase());
  const at: Record<string, number> = {};
  names.forEach((n, i) => {
    if (!COLUMNS.includes(n))
      throw new LogError(
        `line 1: unknown column ${quote(n)}; the header names time,host,cause and optionally end`,
      );
    if (at[n] !== undefined) throw new LogError(`line 1: column ${quote(n)} is named twice`);
    at[n] = i;
  });
  for (const n of REQUIRED) {
    if (at[n] === undefined)
      throw new LogError(`line 1: no ${n} column; the header names time,host,cause and optionally end`);
  }
  return at;
}

export function parseCsv(text: string, unit: TimeUnit = "days"): EventLog {
  const lines = text.split(/\r?\n/);
  const at = columnsOf(lines[0] ?? "");
  const log = new LogBuilder(
    "csv",
    "host",
    ["cause"],
    () => "cause",
    "cause",
    (n) => `line ${n + 1}`,
  );
  let kind: NonNullable<CellTime>["kind"] | null = null;
  const timeOf = (cell: string, where: string, column: string): number => {
    const t = cellTime(cell, unit);
    if (t === null)
      throw new LogError(
        `${where}: ${column} ${quote(cell)} is not a time (an ISO 8601 timestamp or a number of ${unit})`,
      );
    if (kind !== null && t.kind !== kind) {
      throw new LogError(
        `${where}: ${column} ${quote(cell)} is ${t.kind === "iso" ? "a timestamp" : "a number"} where the lines before have ${kind === "iso" ? "timestamps" : "numbers"}`,
      );
    }
    kind = t.kind;
    return t.seconds;
  };
  for (let n = 1; n < lines.length; n++) {
    const line = lines[n]!;
    if (line.trim() === "") continue;
    const where = `line ${n + 1}`;
    const cells = csvCells(line, where);
    const columns = Object.keys(at).length;
    if (cells.length !== columns)
      throw new LogError(`${where}: ${cells.length} cells where the header names ${columns}`);
    const host = cells[at.host!]!.trim();
    const cause = cells[at.cause!]!.trim() || "unlabelled";
    const start = timeOf(cells[at.time!]!, where, "time");
    log.start(n, start, host, [cause]);
    const endCell = at.end === undefined ? "" : (cells[at.end] ?? "").trim();
    if (endCell !== "") {
      if (host === "")
        throw new LogError(`${where}: an end needs a host (an empty host is a job-wide failure)`);
      const end = timeOf(endCell, where, "end");
      if (end < start)
        throw new LogError(
          `${where}: end ${quote(endCell)} is before its start ${quote(cells[at.time!]!.trim())}`,
        );
      log.end(n, end, host);
    }
  }
  return log.build();
}
