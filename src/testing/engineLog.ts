/**
 * Failure logs drawn by the engine itself (generateFailureTrace), written in the formats the fit
 * reads: the fixtures of the fit's tests, e2e and bench come from the code they stand for, never
 * typed to look plausible. Host h is named `host-<h>`; a fault's end is `repairHours` later.
 */
import { generateFailureTrace } from "../sim/failures/failureTrace.ts";
import { parseScenario, type ScenarioInput } from "../sim/scenario/index.ts";

export interface DrawnLog {
  /** Seconds, hosts and causes of each fault start, in time order. */
  starts: { seconds: number; host: number; cause: string }[];
}

/** The failures of one engine run as fault starts (a rack's hosts: one start each, same instant). */
export function drawnLog(input: ScenarioInput, seed: number): DrawnLog {
  const s = parseScenario(input);
  const t = generateFailureTrace(s, seed);
  const starts: DrawnLog["starts"] = [];
  for (let i = 0; i < t.count; i++) {
    const c = t.cause[i]!;
    const cause = c >= 0 ? s.failures.causes[c]!.name : t.hang[i] ? "hang" : "fail-stop";
    for (let j = 0; j < t.hostCount[i]!; j++)
      starts.push({ seconds: t.time[i]!, host: t.host[i]! + j, cause });
  }
  return { starts };
}

/** As a CSV in seconds (exact: a double's shortest decimal reads back as the same double). */
export function logCsv(log: DrawnLog, repairHours?: (i: number) => number): string {
  const rows = log.starts.map((f, i) => {
    const end = repairHours === undefined ? "" : String(f.seconds + repairHours(i) * 3600);
    return `${f.seconds},host-${f.host},${f.cause},${end}`;
  });
  return `time,host,cause,end\n${rows.join("\n")}\n`;
}

/** As InfiniteHBD's event list (days; a fault_end per start when repairs are given). */
export function logEventList(log: DrawnLog, repairHours?: (i: number) => number): string {
  const events: { node_id: string; event_time: number; event_type: string; fault_type: object }[] = [];
  log.starts.forEach((f, i) => {
    const fault_type = { Level: "Hardware Failure", Class: f.cause, Desc: f.cause };
    events.push({
      node_id: `host-${f.host}`,
      event_time: f.seconds / 86_400,
      event_type: "fault_start",
      fault_type,
    });
    if (repairHours !== undefined) {
      const end = (f.seconds + repairHours(i) * 3600) / 86_400;
      events.push({ node_id: `host-${f.host}`, event_time: end, event_type: "fault_end", fault_type });
    }
  });
  events.sort((a, b) => a.event_time - b.event_time);
  return JSON.stringify(events, null, 1);
}
