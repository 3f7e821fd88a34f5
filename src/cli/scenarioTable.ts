/**
 * The README's table of scenario fields, generated from FIELD_SPECS so it cannot drift from the
 * validator: `npm run -s docs:scenario` prints it, `npm run -s docs:scenario -- --write` writes it
 * between the README's scenario-table markers; a test checks the README carries it exactly, and
 * knobLayout.test.ts that every scenario field has a row.
 */
import { readFileSync, writeFileSync } from "node:fs";

import { registeredPolicies } from "../sim/policies/index.ts";
import { MAX_POLICIES } from "../sim/policies/policyKeys.ts";
import {
  DEFAULT_SCENARIO,
  describeAllowed,
  FIELD_SPECS,
  type FieldSpec,
  fieldValue,
  GROUPS,
  type ScalarSpec,
} from "../sim/scenario/index.ts";

function row(path: string, value: string, spec: FieldSpec | ScalarSpec): string {
  const unit = spec.unit ? ` (${spec.unit})` : "";
  return `| \`${path}\` | ${value} | ${describeAllowed(spec)} | ${spec.label}${unit}: ${spec.help} |`;
}

export function scenarioTable(): string {
  const rows = ["| field | default | allowed | meaning |", "|---|---|---|---|"];
  rows.push(`| \`seed\` | ${DEFAULT_SCENARIO.seed} | an integer in [0, 4,294,967,295] | the random seed |`);
  rows.push(
    `| \`policies\` | ${JSON.stringify(DEFAULT_SCENARIO.policies)} | a list of 1–${MAX_POLICIES} distinct of ${registeredPolicies()
      .map((p) => `"${p.key}"`)
      .join(", ")} | the strategies to run and show, in display order (docs/model.md §4) |`,
  );
  for (const g of GROUPS) {
    for (const [k, spec] of Object.entries(FIELD_SPECS[g] as Record<string, FieldSpec>)) {
      const value = fieldValue(DEFAULT_SCENARIO, g, k);
      rows.push(row(`${g}.${k}`, JSON.stringify(value), spec));
      if (spec.kind !== "list") continue;
      // A list's entries: one row per field of an entry; a field without a default is required.
      for (const [f, item] of Object.entries(spec.item)) {
        const def = item.optionalDefault === undefined ? "required" : JSON.stringify(item.optionalDefault);
        rows.push(row(`${g}.${k}[].${f}`, def, item));
      }
    }
  }
  return rows.join("\n");
}

const START =
  "<!-- scenario-table:start (generated: `npm run -s docs:scenario -- --write`; a test keeps it in sync) -->";
const END = "<!-- scenario-table:end -->";

/** The README with its table (between the markers) replaced by `table`; refused by name without the markers. */
export function withScenarioTable(readme: string, table: string): string {
  const start = readme.indexOf("<!-- scenario-table:start");
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error("README.md has no scenario-table:start … end markers");
  return `${readme.slice(0, start)}${START}\n${table}\n${readme.slice(end)}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes("--write")) {
    const path = new URL("../../README.md", import.meta.url);
    writeFileSync(path, withScenarioTable(readFileSync(path, "utf8"), scenarioTable()));
  } else console.log(scenarioTable());
}
