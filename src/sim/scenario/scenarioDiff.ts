/**
 * Every field two scenarios set differently, named as the field table names it (label, unit): the
 * list a comparison shows as "baseline → this". The name, the seed and the strategies are included
 * (the seed decides which failures are drawn); a list field (the cause mix) and the replayed log
 * are one row each, written out whole; a record field (lemon hosts) is one row per member that
 * differs. Pure: no DOM, no engine run.
 */

import { fieldValue, memberField } from "./fields.ts";
import { fmt } from "./format.ts";
import { FIELD_SPECS, type FieldSpec, type RecordMemberSpec } from "./specs.ts";
import { type FailureCause, GROUPS, type ReplayLog, type Scenario } from "./types.ts";

export interface ScenarioDifference {
  /** Where the field is in the scenario JSON: "seed", "cluster.gpus", "failures.badHosts.share". */
  path: string;
  label: string;
  unit?: string;
  /** The baseline's value and this scenario's, as text. */
  from: string;
  to: string;
}

function same(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

function causeText(c: FailureCause): string {
  const flags = [c.hang ? "hangs" : null, c.newHost ? "new host" : null].filter((x) => x !== null);
  return `${c.name} (share ${fmt(c.share)}, ${c.scope}${flags.length ? `, ${flags.join(", ")}` : ""})`;
}

function logText(l: ReplayLog): string {
  if (l.events.length === 0) return "none";
  return `${fmt(l.events.length)} events on ${fmt(l.hosts)} hosts over ${fmt(l.days)} days`;
}

/** A field's value as the comparison writes it: an enum by its knob's option label. */
function valueText(spec: FieldSpec, v: unknown): string {
  if (typeof v === "number") return fmt(v);
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (typeof v === "string") {
    if (spec.kind === "text") return `“${v}”`;
    return spec.knob.options?.[v] ?? v;
  }
  if (spec.kind === "list" && Array.isArray(v)) {
    const causes = v as FailureCause[];
    return causes.length === 0 ? "none" : causes.map(causeText).join("; ");
  }
  if (spec.kind === "log") return logText(v as ReplayLog);
  return JSON.stringify(v);
}

/** The fields `b` (this scenario) sets differently from `a` (the baseline), in the table's order. */
export function scenarioDiff(a: Scenario, b: Scenario): ScenarioDifference[] {
  const out: ScenarioDifference[] = [];
  if (a.name !== b.name) out.push({ path: "name", label: "Name", from: `“${a.name}”`, to: `“${b.name}”` });
  if (a.seed !== b.seed) out.push({ path: "seed", label: "Seed", from: fmt(a.seed), to: fmt(b.seed) });
  if (!same(a.policies, b.policies))
    out.push({
      path: "policies",
      label: "Strategies",
      from: a.policies.join(", "),
      to: b.policies.join(", "),
    });
  for (const g of GROUPS) {
    for (const [key, spec] of Object.entries(FIELD_SPECS[g] as Record<string, FieldSpec>)) {
      const va = fieldValue(a, g, key);
      const vb = fieldValue(b, g, key);
      if (same(va, vb)) continue;
      if (spec.kind === "record") {
        for (const [m, ms] of Object.entries(spec.fields) as [string, RecordMemberSpec][]) {
          const ma = memberField(a, g, key, m);
          const mb = memberField(b, g, key, m);
          if (ma === mb) continue;
          out.push({
            path: `${g}.${key}.${m}`,
            label: ms.label,
            ...(ms.unit ? { unit: ms.unit } : {}),
            from: ma === undefined ? "—" : fmt(ma),
            to: mb === undefined ? "—" : fmt(mb),
          });
        }
        continue;
      }
      out.push({
        path: `${g}.${key}`,
        label: spec.label,
        ...(spec.unit ? { unit: spec.unit } : {}),
        from: valueText(spec, va),
        to: valueText(spec, vb),
      });
    }
  }
  return out;
}
