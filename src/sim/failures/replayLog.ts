/**
 * A run's own failures as a log (docs/model.md §5), and back: the CSV `time,host,cause` of a
 * recorded run's failures, the `failures.log` event list of the same failures, and the replay
 * scenario that strikes them. Replaying a run's failures gives that run's numbers bit for bit
 * (replayLog.test.ts), the proof that drawn and replayed failures go through one engine.
 *
 * The CSV has one line per host struck (a job-scope failure: one line, host empty); lines at
 * one instant with one cause are one failure striking all their hosts. Times are seconds from
 * the start of the run, written in full precision (`npm run fit -- run.csv --unit seconds`
 * reads them). The cause is the cause mix's name, or `fail-stop` / `hang` without a mix.
 */
import { derived } from "../scenario/derived.ts";

export { replayIsOneRun } from "../scenario/derived.ts";

import { parseScenario, type ReplayLog, type Scenario } from "../scenario/index.ts";
import { IMPLICIT_CAUSES } from "../scenario/logChecks.ts";
import type { FailureLog } from "../types.ts";
import { ScopeCode } from "../types.ts";

/** The failures of a run as the recorded log has them (a FailureTrace has the same columns). */
export type RunFailures = Pick<FailureLog, "time" | "host" | "hostCount" | "hang" | "cause" | "scope">;

/** The cause index a failure row has in a log: its index in the mix, or 0 = fail-stop, 1 = hang. */
function causeIndexOf(f: RunFailures, i: number): number {
  const c = f.cause[i]!;
  return c >= 0 ? c : f.hang[i]!;
}

/** The names a log's cause indexes stand for in scenario s. */
function causeNames(s: Scenario): readonly string[] {
  return s.failures.causes.length > 0 ? s.failures.causes.map((c) => c.name) : IMPLICIT_CAUSES;
}

/** The run's failures as `failures.log` events: one per failure, its hosts listed. */
export function replayLogOfRun(s: Scenario, f: RunFailures, count = f.time.length): ReplayLog {
  const events: number[][] = [];
  for (let i = 0; i < count; i++) {
    const e = [f.time[i]!, causeIndexOf(f, i)];
    if (f.scope[i] !== ScopeCode.job) for (let h = 0; h < f.hostCount[i]!; h++) e.push(f.host[i]! + h);
    events.push(e);
  }
  return { hosts: derived(s).hosts, days: s.training.days, events };
}

/**
 * The scenario that replays `log` on `base`: base's fleet, detection, policies and spares, with
 * log arrivals. Validated like any scenario (a log that does not fit is refused by field).
 */
export function replayScenarioFromEvents(base: Scenario, log: ReplayLog): Scenario {
  return parseScenario({
    ...base,
    version: undefined,
    failures: { ...base.failures, arrivals: "log", log },
  });
}

function csvCell(s: string): string {
  return /[",\r\n]|^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The run's failures as CSV `time,host,cause` (file comment), CRLF line ends as every export. */
export function runFailuresCsv(s: Scenario, f: RunFailures, count = f.time.length): string {
  const names = causeNames(s);
  const lines = ["time,host,cause"];
  for (let i = 0; i < count; i++) {
    const t = String(f.time[i]!);
    const cause = csvCell(names[causeIndexOf(f, i)] ?? "");
    if (f.scope[i] === ScopeCode.job) lines.push(`${t},,${cause}`);
    else for (let h = 0; h < f.hostCount[i]!; h++) lines.push(`${t},${f.host[i]! + h},${cause}`);
  }
  return `${lines.join("\r\n")}\r\n`;
}

/** The cells of one CSV line (quotes group, a doubled quote is one). */
function cells(line: string): string[] {
  const out: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted && c === '"' && line[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (c === "," && !quoted) {
      out.push(cell);
      cell = "";
    } else cell += c;
  }
  out.push(cell);
  return out;
}

/**
 * The log of a CSV that runFailuresCsv wrote, for scenario s (whose causes name the cause
 * column). Consecutive lines at one time with one cause are one event. A line that is not
 * `seconds,host,cause` with a known cause is refused by its line number; the replay scenario
 * then checks the rest (order, window, hosts) by field.
 */
export function replayLogFromRunCsv(s: Scenario, text: string): ReplayLog {
  const names = causeNames(s);
  const lines = text.split(/\r?\n/);
  if ((lines[0] ?? "").trim() !== "time,host,cause")
    throw new Error('line 1: must be the header "time,host,cause" (a run\'s failures as exported)');
  const events: number[][] = [];
  let last: number[] | null = null;
  for (let n = 1; n < lines.length; n++) {
    const line = lines[n]!;
    if (line === "") continue;
    const [time, host, cause] = cells(line);
    const t = Number(time);
    const c = names.indexOf(cause ?? "");
    if (time === "" || !Number.isFinite(t))
      throw new Error(`line ${n + 1}: the time is not a number of seconds`);
    if (c < 0) throw new Error(`line ${n + 1}: unknown cause; must be one of the scenario's causes`);
    const h = host === "" || host === undefined ? null : Number(host);
    if (h !== null && !Number.isInteger(h)) throw new Error(`line ${n + 1}: the host is not a host index`);
    if (last !== null && last[0] === t && last[1] === c && h !== null) last.push(h);
    else {
      last = h === null ? [t, c] : [t, c, h];
      events.push(last);
    }
  }
  return { hosts: derived(s).hosts, days: s.training.days, events };
}
