/**
 * §5's requirements of a replayed log (`failures.arrivals = "log"`), each refused by the field
 * it is about: the log runs on the fleet it came from, covers the horizon, and lists its events
 * sorted, in the window, with valid causes and distinct host indexes.
 */
import { fmt } from "./format.ts";
import type { Scenario } from "./types.ts";

/** Version 1's two implicit causes, which a log without a cause mix points to (causes.ts). */
export const IMPLICIT_CAUSES = ["fail-stop", "hang"] as const;

/** The causes a log's causeIndex may point to: the cause mix, or version 1's implicit pair. */
export function logCauseCount(s: Scenario): number {
  return s.failures.causes.length > 0 ? s.failures.causes.length : IMPLICIT_CAUSES.length;
}

/** Whether cause c of the scenario strikes the whole job (no host listed). */
function jobScope(s: Scenario, c: number): boolean {
  return s.failures.causes[c]?.scope === "job";
}

/** At most this many problems from one log: a bad file lists a few, not twenty thousand. */
const MAX_REPORTED = 5;

/** The problems of `failures.log` in s, when it is replayed or given; [] when none. */
export function logProblems(s: Scenario, hosts: number): string[] {
  const { log, arrivals } = s.failures;
  if (arrivals !== "log" && log.events.length === 0) return [];
  const out: string[] = [];
  if (log.hosts !== hosts)
    out.push(
      `failures.log.hosts: got ${fmt(log.hosts)}; must equal the cluster's hosts (${fmt(hosts)}): a replay runs on the fleet the log came from`,
    );
  if (log.days < s.training.days)
    out.push(
      `failures.log.days: got ${fmt(log.days)}; must be at least training.days (${fmt(s.training.days)}): the horizon cannot exceed the log`,
    );
  const end = log.days * 86_400;
  const causes = logCauseCount(s);
  let previous = 0;
  for (let i = 0; i < log.events.length && out.length < MAX_REPORTED; i++) {
    const e = log.events[i] as number[];
    const at = `failures.log.events[${i}]`;
    const t = e[0] as number;
    const c = e[1] as number;
    if (!(t >= 0 && t < end))
      out.push(`${at}[0]: got ${fmt(t)}; must be a time in seconds in [0, ${fmt(end)}) (log.days × 86,400)`);
    else if (t < previous)
      out.push(
        `${at}[0]: got ${fmt(t)}, before the event above (${fmt(previous)}); events must be sorted by time`,
      );
    previous = Math.max(previous, t);
    if (!Number.isInteger(c) || c < 0 || c >= causes) {
      out.push(
        `${at}[1]: got cause ${fmt(c)}; must be an integer in [0, ${causes - 1}] (${s.failures.causes.length > 0 ? "an index into failures.causes" : "0 = fail-stop, 1 = hang: failures.causes is empty"})`,
      );
      continue;
    }
    const struck = e.length - 2;
    if (jobScope(s, c) && struck > 0)
      out.push(`${at}: a job-scope cause strikes the whole job; must list no hosts, got ${struck}`);
    if (!jobScope(s, c) && struck === 0)
      out.push(`${at}: must list at least one host (its cause is not job-scope)`);
    const seen = new Set<number>();
    for (let j = 2; j < e.length; j++) {
      const h = e[j] as number;
      if (!Number.isInteger(h) || h < 0 || h >= log.hosts) {
        out.push(
          `${at}[${j}]: got host ${fmt(h)}; must be an integer in [0, ${fmt(log.hosts - 1)}] (log.hosts)`,
        );
        break;
      }
      if (seen.has(h)) {
        out.push(`${at}[${j}]: host ${fmt(h)} is listed twice in one event`);
        break;
      }
      seen.add(h);
    }
  }
  return out;
}
