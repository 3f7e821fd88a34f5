/**
 * The catalogue of sweep axes. Every numeric field of the field table (specs.ts) is an axis, and
 * every enumerated one an axis of categories: a field's spec says how it sweeps (`sweep`: range,
 * log or linear), and a record field's members each do (`failures.badHosts.share`). The eleven axes
 * from before the field table (cluster size, MTBF, replicas, eight recovery knobs) keep their ids,
 * so an old `sw=` link names the same axis (sweepAxesCompat.test.ts); every other field's axis is
 * named `group.key`. A scenario's causes add axes of their own (causeAxes.ts).
 */
import {
  FIELD_SPECS,
  type FieldSpec,
  GROUPS,
  type NumberSpec,
  type RecordMemberSpec,
  type Scenario,
  type ScenarioGroup,
} from "../scenario/index.ts";
import { causeAxes, causeAxisInfo, causeAxisOf, causeAxisProblem } from "./causeAxes.ts";
import type { AxisField, FieldAxisId, KnobAxisId, SweepAxisId, SweepAxisInfo } from "./types.ts";

export function specOf(group: ScenarioGroup, key: string): FieldSpec | undefined {
  return Object.hasOwn(FIELD_SPECS[group], key)
    ? (FIELD_SPECS[group] as Record<string, FieldSpec>)[key]
    : undefined;
}

/** A number spec that says how it sweeps. */
export type SweptNumber = NumberSpec & { sweep: NonNullable<NumberSpec["sweep"]> };

/** A record field's member's spec (`failures.badHosts` → `share`). */
function memberSpecOf(group: ScenarioGroup, key: string, member: string): RecordMemberSpec | undefined {
  const spec = specOf(group, key);
  return spec?.kind === "record" && Object.hasOwn(spec.fields, member) ? spec.fields[member] : undefined;
}

/** An axis field's number spec (a record's member's own), or null for an enum or a derived axis. */
export function numberSpecOf(f: AxisField): NumberSpec | null {
  const spec = specOf(f.group, f.key);
  if (!spec) return null;
  if (f.member !== undefined) return memberSpecOf(f.group, f.key, f.member) ?? null;
  return spec.kind === "int" || spec.kind === "number" ? spec : null;
}

/** The old axes' recovery knobs, each a field of the table: its range comes from the field's `sweep`. */
export const LEGACY_KNOBS: Readonly<Record<KnobAxisId, { group: ScenarioGroup; key: string }>> = {
  failStopSeconds: { group: "detection", key: "failStopSeconds" },
  hangSeconds: { group: "detection", key: "hangSeconds" },
  syncRestartSeconds: { group: "sync", key: "restartSeconds" },
  checkpointMinutes: { group: "sync", key: "checkpointMinutes" },
  reconfigureSeconds: { group: "ft", key: "reconfigureSeconds" },
  replicaRestartSeconds: { group: "ft", key: "replicaRestartSeconds" },
  catchUpSeconds: { group: "ft", key: "catchUpSeconds" },
  rejoinSeconds: { group: "ft", key: "rejoinSeconds" },
};

export function isKnob(id: SweepAxisId): id is KnobAxisId {
  return Object.hasOwn(LEGACY_KNOBS, id);
}

/** A legacy knob's field and its sweep range (the lowest value swept, and the upper end when its value is too small to scale from). */
export function legacyKnob(id: KnobAxisId): {
  group: ScenarioGroup;
  key: string;
  spec: FieldSpec & SweptNumber;
} {
  const { group, key } = LEGACY_KNOBS[id];
  const spec = specOf(group, key);
  if ((spec?.kind !== "number" && spec?.kind !== "int") || !spec.sweep)
    throw new Error(`${group}.${key} has no sweep range`);
  return { group, key, spec: spec as FieldSpec & SweptNumber };
}

/** Who reads a group's fields, said before a label that other groups share ("Checkpoint interval"). */
const GROUP_PREFIX: Partial<Record<ScenarioGroup, string>> = {
  sync: "Sync: ",
  ft: "FT-HSDP: ",
  inMemory: "In-memory: ",
  hotSpare: "Hot spares: ",
  spares: "Spares: ",
};

function knobInfo(id: KnobAxisId): SweepAxisInfo {
  const { group, key, spec } = legacyKnob(id);
  return {
    id,
    label: `${GROUP_PREFIX[group] ?? ""}${spec.label}`,
    unit: spec.unit ?? "",
    log: false,
    field: { group, key },
  };
}

/** Fields the old axes already sweep (cluster size, MTBF for the failure rate, replicas, the knobs). */
const LEGACY_FIELDS = new Set([
  "cluster.gpus",
  "cluster.replicas",
  "failures.perHostDay",
  ...Object.values(LEGACY_KNOBS).map(({ group, key }) => `${group}.${key}`),
]);

/** Every field of the table that is not a legacy axis, as an axis: numbers with a `sweep`, enums, records' swept members. */
function fieldAxes(): SweepAxisInfo[] {
  const out: SweepAxisInfo[] = [];
  for (const group of GROUPS) {
    for (const [key, spec] of Object.entries(FIELD_SPECS[group] as Record<string, FieldSpec>)) {
      const id: FieldAxisId = `${group}.${key}`;
      if (LEGACY_FIELDS.has(id)) continue;
      const label = `${GROUP_PREFIX[group] ?? ""}${spec.label}`;
      if ((spec.kind === "int" || spec.kind === "number") && spec.sweep)
        out.push({ id, label, unit: spec.unit ?? "", log: spec.sweep.log === true, field: { group, key } });
      else if (spec.kind === "enum")
        out.push({
          id,
          label,
          unit: "",
          log: false,
          field: { group, key },
          categories: spec.values
            .filter((value) => !spec.valuesNotSwept?.includes(value))
            .map((value) => ({ value, label: spec.knob.options?.[value] ?? value })),
        });
      else if (spec.kind === "record")
        for (const [member, m] of Object.entries(spec.fields))
          if (m.sweep)
            out.push({
              id: `${group}.${key}.${member}`,
              label: `${GROUP_PREFIX[group] ?? ""}${m.label}`,
              unit: m.unit ?? "",
              log: m.sweep.log === true,
              field: { group, key, member },
              help: m.help,
            });
    }
  }
  return out;
}

export const SWEEP_AXES: readonly SweepAxisInfo[] = [
  { id: "gpus", label: "Cluster size", unit: "GPUs", log: true, field: { group: "cluster", key: "gpus" } },
  { id: "mtbf", label: "Job MTBF (failure rate)", unit: "min", log: true },
  {
    id: "replicas",
    label: "Replicas (R)",
    unit: "",
    log: true,
    field: { group: "cluster", key: "replicas" },
  },
  ...(Object.keys(LEGACY_KNOBS) as KnobAxisId[]).map(knobInfo),
  ...fieldAxes(),
];

/** Every axis of `s`: the field table's, then its causes'. */
export function sweepAxesFor(s: Scenario): SweepAxisInfo[] {
  return [...SWEEP_AXES, ...causeAxes(s)];
}

/** Why `s` has no such axis (a cause it does not list), naming the axis and the causes, or null. */
export function sweepAxisProblem(s: Scenario, id: string): string | null {
  const c = causeAxisOf(id);
  if (!c) return SWEEP_AXES.some((a) => a.id === id) ? null : `axis ${id.slice(0, 40)} is not a sweep axis`;
  return causeAxisProblem(s, id, c);
}

/** An axis's description; a cause's is labelled with its name in `s` (without `s`: by its place). */
export function axisInfo(id: SweepAxisId, s?: Scenario): SweepAxisInfo {
  const c = causeAxisOf(id);
  if (c) return causeAxisInfo(c.index, c.key, s?.failures.causes[c.index]);
  const info = SWEEP_AXES.find((a) => a.id === id);
  if (!info) throw new Error(`unknown sweep axis ${id}`);
  return info;
}

/**
 * Whether the axis's field takes input in this scenario (its knob is enabled, and for a record's
 * member its own `sweepWhen`): one that does not changes nothing the engine reads.
 */
export function axisApplies(s: Scenario, id: SweepAxisId): boolean {
  if (causeAxisOf(id)) return sweepAxisProblem(s, id) === null;
  const f = axisInfo(id).field;
  if (!f) return true;
  const when = specOf(f.group, f.key)?.knob.enabledWhen;
  if (when && !when(s)) return false;
  const member = f.member === undefined ? undefined : memberSpecOf(f.group, f.key, f.member);
  return member?.sweepWhen ? member.sweepWhen(s) : true;
}

/** The range a number axis sweeps by default (its field's `sweep`), or null (a derived axis, an enum, a cause). */
export function axisSweepRange(id: SweepAxisId): SweptNumber["sweep"] | null {
  const f = axisInfo(id).field;
  return (f && numberSpecOf(f)?.sweep) ?? null;
}
