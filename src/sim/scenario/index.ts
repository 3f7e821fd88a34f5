/**
 * The scenario (version 5, SCENARIO_VERSION): the public contract of the explorer (docs/model.md
 * §1, §3–§6; README.md "Scenarios").
 *
 * Every field is described once, in FIELD_SPECS: its group, kind, range, unit and a label. The
 * zod schemas, the error messages, the UI's knobs and the README's table all derive from it, so a
 * range can never disagree between the validator and the slider that feeds it. A list field
 * (`failures.causes`) describes its entries with the same specs, so an entry's error names the
 * entry and the field: `failures.causes[3].share: ...`.
 *
 * This file is the public entry: parsing, versions and diffs. Its parts live in ./scenario/:
 * types.ts (the shape and defaults), specs.ts (the field tables), schema.ts (the schema and its
 * messages), consistency.ts (checks between fields).
 *
 * Version 1 is version 2 with the §3 fields at their defaults, which reproduce it exactly. So a
 * scenario's `version` is what its content needs: 1 when every §3 field is at its default (a
 * version-1 file or link, completed with those defaults), 2 when it uses a §3 setting. Derived,
 * not declared: an input may say 1 or 2, but the same content always carries the same label, so
 * a link or file round-trips exactly whichever way it was written, and old links need no tag.
 */
import "./zodSetup.ts";
import { consistencyProblems } from "./consistency.ts";
import { fieldValue as fieldOf } from "./fields.ts";
import { describeValue, formatIssues, inputSchema, ScenarioError } from "./schema.ts";
import { FIELD_SPECS, type FieldSpec } from "./specs.ts";
import {
  DEFAULT_SCENARIO,
  type FailureCause,
  type FailureCauseInput,
  GROUPS,
  type Scenario,
  type ScenarioGroup,
  type ScenarioInput,
  type ScenarioVersion,
} from "./types.ts";

export { hostsPerEvent } from "./consistency.ts";
export * from "./fields.ts";
export { clampToRange, describeAllowed, formatPath, inAllowedRange, ScenarioError } from "./schema.ts";
export * from "./specs.ts";
export * from "./types.ts";

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** An entry completed from its optional fields' defaults: a job-scope cause breaks no host. */
function completeCause(c: FailureCauseInput): FailureCause {
  return {
    name: c.name,
    share: c.share,
    scope: c.scope,
    hang: c.hang ?? false,
    newHost: c.newHost ?? c.scope !== "job",
  };
}

/**
 * Validate a (possibly partial) scenario and complete it from the defaults.
 * Throws ScenarioError listing every problem, each naming its field and the allowed range.
 */
export function parseScenario(input: unknown): Scenario {
  if (!isRecord(input))
    throw new ScenarioError([`scenario: got ${describeValue(input)}; must be a JSON object`]);
  const parsed = inputSchema.safeParse(input);
  if (!parsed.success) throw new ScenarioError(formatIssues(parsed.error.issues, input));
  const partial = parsed.data as ScenarioInput & {
    failures?: { causes?: FailureCauseInput[] };
  };
  const d = DEFAULT_SCENARIO;
  // Each group is its defaults overlaid with what the input gives, in GROUPS' order (the key order
  // every scenario has, which JSON output and links show).
  const groups = Object.fromEntries(GROUPS.map((g) => [g, { ...d[g], ...partial[g] }])) as Pick<
    Scenario,
    ScenarioGroup
  >;
  // A list's entries are completed from their optional fields' defaults.
  groups.failures.causes = (partial.failures?.causes ?? d.failures.causes).map(completeCause);
  const scenario: Scenario = {
    version: 1,
    name: partial.name ?? d.name,
    seed: partial.seed ?? d.seed,
    policies: [...(partial.policies ?? d.policies)],
    ...groups,
  };
  scenario.version = versionOf(scenario);
  const problems = consistencyProblems(scenario);
  if (problems.length > 0) throw new ScenarioError(problems);
  return scenario;
}

/** Value equality for field values: numbers, strings, booleans, lists of plain entries and small objects. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  return a !== null && b !== null && typeof a === "object" && typeof b === "object"
    ? JSON.stringify(a) === JSON.stringify(b)
    : false;
}

/** The fields that mark a version (a `since`, or an enum with later values), listed once. */
const VERSIONED: { group: ScenarioGroup; key: string; spec: FieldSpec }[] = GROUPS.flatMap((group) =>
  Object.entries(FIELD_SPECS[group] as Record<string, FieldSpec>)
    .filter(
      ([, spec]) =>
        spec.since !== undefined || (spec.kind === "enum" && (spec.valuesSince2 || spec.valuesSince4)),
    )
    .map(([key, spec]) => ({ group, key, spec })),
);

/** The version a field came with (1 for a field of version 1). */
function sinceOf(spec: FieldSpec): ScenarioVersion {
  return spec.since ?? 1;
}

/** The version an enum's value came with, or null when it is one of version 1's. */
function valueSince(spec: FieldSpec, v: unknown): ScenarioVersion | null {
  if (spec.kind !== "enum") return null;
  if (spec.valuesSince2?.includes(v as string)) return 2;
  if (spec.valuesSince4?.includes(v as string)) return 4;
  return null;
}

/**
 * True when the scenario uses a setting that came with `version`: a field of that version off
 * its default, an enum value of that version, or (version 3, §4) other policies than the default.
 */
export function usesVersion(s: Scenario, version: ScenarioVersion): boolean {
  if (version === 3 && !sameValue(s.policies, DEFAULT_SCENARIO.policies)) return true;
  // §7: a scenario that runs DiLoCo is of version 6 even with the diloco group at its defaults.
  if (version === 6 && (s.policies as readonly string[]).includes("diloco")) return true;
  for (const { group, key, spec } of VERSIONED) {
    const v = fieldOf(s, group, key);
    if (sinceOf(spec) === version && !sameValue(v, fieldOf(DEFAULT_SCENARIO, group, key))) return true;
    if (valueSince(spec, v) === version) return true;
  }
  return false;
}

/**
 * The version a scenario's content needs (file comment): the newest version whose settings it
 * uses, checked newest first.
 */
export function versionOf(s: Scenario): ScenarioVersion {
  for (const version of [6, 5, 4, 3, 2] as const) if (usesVersion(s, version)) return version;
  return 1;
}

/**
 * Only the fields that differ from the defaults: what a share link carries. `version` is left
 * out (it follows from the content), so a scenario whose §3 fields are at their defaults gives
 * exactly the diff version 1 gave, and re-sharing an old link gives the old link.
 */
export function diffFromDefaults(s: Scenario): ScenarioInput {
  const out: Record<string, unknown> = {};
  if (s.name !== DEFAULT_SCENARIO.name) out.name = s.name;
  if (s.seed !== DEFAULT_SCENARIO.seed) out.seed = s.seed;
  if (!sameValue(s.policies, DEFAULT_SCENARIO.policies)) out.policies = [...s.policies];
  for (const g of GROUPS) {
    const changed = Object.fromEntries(
      Object.keys(s[g])
        .map((k) => [k, fieldOf(s, g, k)] as const)
        .filter(([k, v]) => !sameValue(v, fieldOf(DEFAULT_SCENARIO, g, k))),
    );
    if (Object.keys(changed).length > 0) out[g] = changed;
  }
  return out as ScenarioInput;
}

/** The engine's own module (derived.ts) keeps zod out of the CLI's worker threads. */
export { derived } from "./derived.ts";
