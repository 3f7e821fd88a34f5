/**
 * A field read or written by group and key, as the field table names it (`cluster.gpus`), for
 * the code that walks the table: the knobs, the sweep axes, the README's table, versions and
 * diffs. A group is a typed record with no index signature, so reading one by a key held in a
 * string needs one widening cast: it is made here, once, and every caller reads a typed value.
 */
import type { Scenario, ScenarioGroup } from "./types.ts";

/** Any value a field of a group may hold (a number, an enum's string, a list, a small record, a log). */
export type FieldValue = { [G in ScenarioGroup]: Scenario[G][keyof Scenario[G]] }[ScenarioGroup];

type Groups = Pick<Scenario, ScenarioGroup>;

function groupOf(s: Groups, group: ScenarioGroup): Readonly<Record<string, FieldValue | undefined>> {
  // The one widening: a group's fields, all of type FieldValue, seen as a record keyed by name.
  return s[group] as Readonly<Record<string, FieldValue | undefined>>;
}

/** The value of `group.key` in `s`, or undefined when the group has no such field. */
export function fieldValue(s: Groups, group: ScenarioGroup, key: string): FieldValue | undefined {
  return Object.hasOwn(s[group], key) ? groupOf(s, group)[key] : undefined;
}

/** A number field's value (undefined when the field is not a number). */
export function numberField(s: Groups, group: ScenarioGroup, key: string): number | undefined {
  const v = fieldValue(s, group, key);
  return typeof v === "number" ? v : undefined;
}

/** An enum (or text) field's value (undefined when the field is not a string). */
export function stringField(s: Groups, group: ScenarioGroup, key: string): string | undefined {
  const v = fieldValue(s, group, key);
  return typeof v === "string" ? v : undefined;
}

/** A record field's member (`failures.badHosts.share`), or undefined when it has none. */
export function memberField(
  s: Groups,
  group: ScenarioGroup,
  key: string,
  member: string,
): number | undefined {
  const v = fieldValue(s, group, key);
  if (v === null || typeof v !== "object" || Array.isArray(v) || !Object.hasOwn(v, member)) return undefined;
  const m: unknown = Object.getOwnPropertyDescriptor(v, member)?.value;
  return typeof m === "number" ? m : undefined;
}

/**
 * `s` with `group.key` set to `value` (the other groups and fields shared, not copied). The
 * caller gives a value of the field's kind; the validator (parseScenario) is what checks it.
 */
export function withFieldValue<S extends Groups>(s: S, group: ScenarioGroup, key: string, value: unknown): S {
  return { ...s, [group]: { ...s[group], [key]: value } };
}
