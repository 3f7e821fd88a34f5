/**
 * The scenario's zod schema, built from the field specs (specs.ts), and the messages a refused
 * input gets: each names the field (`failures.causes[3].share`), what it got, and what is allowed.
 */
import * as z from "zod/mini";
import "./zodSetup.ts";
import { isPolicyKey, MAX_POLICIES, policiesAllowed, policyKeys } from "../policies/policyKeys.ts";
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
    case "record":
      return `an object {${Object.entries(spec.fields)
        .map(([k, f]) => `${k}: ${describeAllowed(f as ScalarSpec)}`)
        .join(", ")}}`;
    case "log":
      return `an object {hosts, days, events} with at most ${fmt(spec.maxEvents)} events [tSeconds, causeIndex, host, …] of at most ${spec.maxHostsPerEvent} hosts`;
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

/**
 * The allowed value nearest to a finite `v` (v itself when allowed): what a tool that derives a
 * figure (the log fit) writes instead of a value the validator would refuse. An excluded bound
 * gives way to its `smallest` or to the nearest double inside; an integer field rounds.
 */
export function clampToRange(spec: NumberSpec, v: number): number {
  const { min, max, minExclusive, maxExclusive, smallest } = spec;
  const lo =
    smallest ?? (minExclusive ? min + Math.max(Number.MIN_VALUE, Math.abs(min) * Number.EPSILON) : min);
  const hi = maxExclusive ? max - Math.max(Number.MIN_VALUE, Math.abs(max) * Number.EPSILON) : max;
  const near = v === min && !minExclusive ? v : Math.min(hi, Math.max(lo, v));
  return spec.kind === "int" ? Math.min(Math.floor(hi), Math.max(Math.ceil(lo), Math.round(near))) : near;
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
    case "record":
      return z.strictObject(
        Object.fromEntries(Object.entries(spec.fields).map(([k, f]) => [k, scalarSchema(f as ScalarSpec)])),
        { error },
      );
    case "log":
      return logSchema(spec.maxEvents, spec.maxHostsPerEvent);
    default: {
      const finite = z.refine(Number.isFinite, { error });
      const inRange = z.refine<number>((v) => inAllowedRange(spec, v), { error });
      return spec.kind === "int"
        ? z.number({ error }).check(finite, z.refine(Number.isInteger, { error }), inRange)
        : z.number({ error }).check(finite, inRange);
    }
  }
}

// 0 and 0 are the default (no log): a full scenario file writes them, and must read back.
const LOG_HOSTS_ERROR = "must be an integer in [0, 1,000,000] (the log's fleet, in hosts)";
const LOG_DAYS_ERROR = "must be a number in [0, 365] (the log's window, in days)";

/**
 * §5's log: its shape and each number's kind here; what depends on the rest of the scenario
 * (the cluster's hosts, the horizon, causes, sorted times, host indexes) is checked in
 * consistency.ts, so each refusal names its field.
 */
function logSchema(maxEvents: number, maxHosts: number): z.ZodMiniType {
  const eventError = `must be a list [tSeconds, causeIndex, host, …] of finite numbers with at most ${maxHosts} hosts`;
  const eventsError = `must be a list of at most ${fmt(maxEvents)} events`;
  const finite = z.number({ error: eventError }).check(z.refine(Number.isFinite, { error: eventError }));
  return z.strictObject(
    {
      hosts: z
        .number({ error: LOG_HOSTS_ERROR })
        .check(z.refine((v) => Number.isInteger(v) && v >= 0 && v <= 1_000_000, { error: LOG_HOSTS_ERROR })),
      days: z
        .number({ error: LOG_DAYS_ERROR })
        .check(z.refine((v) => Number.isFinite(v) && v >= 0 && v <= 365, { error: LOG_DAYS_ERROR })),
      events: z
        .array(
          z
            .array(finite, { error: eventError })
            .check(z.minLength(2, { error: eventError }), z.maxLength(2 + maxHosts, { error: eventError })),
          { error: eventsError },
        )
        .check(z.maxLength(maxEvents, { error: eventsError })),
    },
    { error: "must be an object with fields hosts, days, events" },
  );
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
    z.union(
      [z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5), z.literal(SCENARIO_VERSION)],
      {
        error: `must be 1, 2, 3, 4, 5 or ${SCENARIO_VERSION} (the scenario versions)`,
      },
    ),
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
  if (spec?.kind === "list") return Object.keys(spec.item);
  if (spec?.kind === "record") return Object.keys(spec.fields);
  return spec?.kind === "log" ? ["hosts", "days", "events"] : [];
}

export function describeValue(v: unknown): string {
  if (v === undefined) return "nothing";
  if (typeof v === "string") {
    // Counted in code points, as the length checks count (zod's maxLength): 21 emoji are 21
    // characters, not 42. Cut there too, so never between the halves of a surrogate pair.
    const chars = [...v];
    if (chars.length <= 40) return JSON.stringify(v);
    return `${JSON.stringify(`${chars.slice(0, 40).join("")}…`)} (${chars.length} characters)`;
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

/** Control characters, C1 controls, separators and bidirectional overrides (as src/cli/echo.ts). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** The most characters of an unknown key a message quotes, its escapes counted (README). */
const MAX_KEY_CHARS = 200;

/**
 * An unknown key as a message quotes it: its control characters escaped first (visible in the page
 * and harmless in a terminal), then cut at 200 characters, never inside an escape.
 */
export function quotedKey(k: string): string {
  const escaped = k.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  if (escaped.length <= MAX_KEY_CHARS) return escaped;
  let end = MAX_KEY_CHARS;
  const at = escaped.lastIndexOf("\\u", end - 1);
  if (at > end - 6) end = at;
  const code = escaped.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${escaped.slice(0, end)}… (cut here: ${(escaped.length - end).toLocaleString("en-US")} more characters)`;
}

export function formatIssues(issues: z.core.$ZodIssue[], input: unknown): string[] {
  return issues.flatMap((issue) => {
    const path = formatPath(issue.path);
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map(
        (k) =>
          `${path ? `${path}.` : ""}${quotedKey(k)}: unknown field (allowed: ${allowedKeys(issue.path).join(", ")})`,
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
