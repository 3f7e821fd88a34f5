/**
 * The scenario's zod schema, built from the field specs (specs.ts), and the messages a refused
 * input gets: each names the field (`failures.causes[3].share`), what it got, and what is allowed.
 */
import * as z from "zod/mini";
import "../zodSetup.ts";
import { isPolicyKey, MAX_POLICIES, policiesAllowed, policyKeys } from "../policyKeys.ts";
import { fmt } from "./format.ts";
import { FIELD_SPECS, type FieldSpec, type NumberSpec, type ScalarSpec } from "./specs.ts";
import { GROUPS, SCENARIO_VERSION, type ScenarioGroup } from "./types.ts";

/** "an integer in [1, 1,000,000]" — the allowed range, as every error message states it. */
export function describeAllowed(spec: FieldSpec | ScalarSpec): string {
  switch (spec.kind) {
    case "enum":
      return `one of ${spec.values.map((v) => `"${v}"`).join(", ")}`;
    case "bool":
      return "true or false";
    case "text":
      return `a string of ${spec.minLength}–${spec.maxLength} characters`;
    case "list":
      return `a list of at most ${spec.maxItems} ${spec.itemNoun}s {${Object.keys(spec.item).join(", ")}}`;
    default: {
      const what = spec.kind === "int" ? "an integer" : "a number";
      const close = spec.maxExclusive ? ")" : "]";
      if (spec.smallest !== undefined) {
        const range = `${what} in [${fmt(spec.smallest)}, ${fmt(spec.max)}${close}`;
        return spec.minExclusive ? range : `${fmt(spec.min)} or ${range}`;
      }
      return `${what} in ${spec.minExclusive ? "(" : "["}${fmt(spec.min)}, ${fmt(spec.max)}${close}`;
    }
  }
}

/** Whether a finite number is in the field's allowed range (describeAllowed says it in words). */
export function inAllowedRange(spec: NumberSpec, v: number): boolean {
  const { min, max, minExclusive, maxExclusive, smallest } = spec;
  if (v > max || v < min || (minExclusive && v === min) || (maxExclusive && v === max)) return false;
  return smallest === undefined || v === min || v >= smallest;
}

function scalarSchema(spec: ScalarSpec | FieldSpec): z.ZodMiniType {
  // Worded when an input is refused, not when the schema is built: the number format loads ICU's
  // locale data (~20 ms), a cost every page load and every CLI run paid for messages rarely shown.
  const error = () => `must be ${describeAllowed(spec)}`;
  switch (spec.kind) {
    case "enum":
      return z.enum(spec.values as [string, ...string[]], { error });
    case "bool":
      return z.boolean({ error });
    case "text":
      return z
        .string({ error })
        .check(z.minLength(spec.minLength, { error }), z.maxLength(spec.maxLength, { error }));
    case "list": {
      const entry = z.strictObject(
        Object.fromEntries(
          Object.entries(spec.item).map(([k, s]) => {
            const field = scalarSchema(s);
            return [k, s.optionalDefault === undefined ? field : z.optional(field)];
          }),
        ),
        { error: `must be an object with fields ${Object.keys(spec.item).join(", ")}` },
      );
      return z.array(entry, { error }).check(z.maxLength(spec.maxItems, { error }));
    }
    default: {
      const finite = z.refine(Number.isFinite, { error });
      const inRange = z.refine<number>((v) => inAllowedRange(spec, v), { error });
      return spec.kind === "int"
        ? z.number({ error }).check(finite, z.refine(Number.isInteger, { error }), inRange)
        : z.number({ error }).check(finite, inRange);
    }
  }
}

function groupSchema(group: ScenarioGroup) {
  const specs = FIELD_SPECS[group] as Record<string, FieldSpec>;
  return z.strictObject(
    Object.fromEntries(Object.entries(specs).map(([k, s]) => [k, z.optional(scalarSchema(s))])),
  );
}

const seedError = "must be an integer in [0, 4,294,967,295]";
// Messages made when an input is refused, so that a policy registered by a plug-in (policyKeys.ts)
// is named among the allowed ones; in the shipped app they are the built-in keys.
const policyError = () =>
  `must be one of ${policyKeys()
    .map((k) => `"${k}"`)
    .join(", ")}`;
const policiesError = () => `must be ${policiesAllowed()}`;
export const inputSchema = z.strictObject({
  version: z.optional(
    z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(SCENARIO_VERSION)], {
      error: `must be 1, 2, 3, 4 or ${SCENARIO_VERSION} (the scenario versions)`,
    }),
  ),
  policies: z.optional(
    z
      .array(z.string({ error: policyError }).check(z.refine(isPolicyKey, { error: policyError })), {
        error: policiesError,
      })
      .check(z.minLength(1, { error: policiesError }), z.maxLength(MAX_POLICIES, { error: policiesError })),
  ),
  name: z.optional(
    z
      .string({ error: "must be a string of at most 120 characters" })
      .check(z.maxLength(120, { error: "must be a string of at most 120 characters" })),
  ),
  seed: z.optional(
    z
      .number({ error: seedError })
      .check(z.refine((v) => Number.isInteger(v) && v >= 0 && v <= 0xffff_ffff, { error: seedError })),
  ),
  ...Object.fromEntries(GROUPS.map((g) => [g, z.optional(groupSchema(g))])),
});

export class ScenarioError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("; "));
    this.name = "ScenarioError";
  }
}

function specAt(path: readonly PropertyKey[]): FieldSpec | undefined {
  const group = FIELD_SPECS[path[0] as ScenarioGroup] as Record<string, FieldSpec> | undefined;
  return group?.[String(path[1])];
}

function allowedKeys(path: readonly PropertyKey[]): string[] {
  if (path.length === 0) return ["version", "name", "seed", "policies", ...GROUPS];
  if (path.length === 1) return Object.keys(FIELD_SPECS[path[0] as ScenarioGroup] ?? {});
  const spec = specAt(path);
  return spec?.kind === "list" ? Object.keys(spec.item) : [];
}

export function describeValue(v: unknown): string {
  if (v === undefined) return "nothing";
  if (typeof v === "string") {
    if (v.length <= 40) return JSON.stringify(v);
    // Cut where it is said, and never between the two halves of a surrogate pair (an emoji).
    const end = /[\ud800-\udbff]/.test(v[39] ?? "") ? 39 : 40;
    return `${JSON.stringify(`${v.slice(0, end)}…`)} (${v.length} characters)`;
  }
  // JSON's 1e999 parses to Infinity: what was written was a number too large, not "Infinity".
  if (typeof v === "number" && !Number.isFinite(v)) return "a number too large to represent";
  if (v === null || typeof v !== "object") return String(v);
  return Array.isArray(v) ? "an array" : "an object";
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const k of path)
    v = v !== null && typeof v === "object" ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  return v;
}

/** `failures.causes[3].share`: list indices in brackets, as a person would write them. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((k, i) => (typeof k === "number" ? `[${k}]` : i === 0 ? String(k) : `.${String(k)}`))
    .join("");
}

export function formatIssues(issues: z.core.$ZodIssue[], input: unknown): string[] {
  return issues.flatMap((issue) => {
    const path = formatPath(issue.path);
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map(
        (k) =>
          `${path ? `${path}.` : ""}${k}: unknown field (allowed: ${allowedKeys(issue.path).join(", ")})`,
      );
    }
    if (issue.path.length === 1 && GROUPS.includes(issue.path[0] as ScenarioGroup)) {
      return [`${path}: must be an object with fields ${allowedKeys(issue.path).join(", ")}`];
    }
    const value = valueAt(input, issue.path);
    const got =
      issue.code === "too_big" && Array.isArray(value) ? `a list of ${value.length}` : describeValue(value);
    return [`${path || "scenario"}: got ${got}; ${issue.message}`];
  });
}
