/**
 * The README's table of scenario fields, generated from FIELD_SPECS so it cannot drift from the
 * validator: `npm run -s docs:scenario` prints it; a test checks the README carries it verbatim.
 */
import { DEFAULT_SCENARIO, describeAllowed, FIELD_SPECS, GROUPS } from "../sim/scenario.ts";

export function scenarioTable(): string {
  const rows = ["| field | default | allowed | meaning |", "|---|---|---|---|"];
  rows.push(`| \`seed\` | ${DEFAULT_SCENARIO.seed} | an integer in [0, 4,294,967,295] | the random seed |`);
  for (const g of GROUPS) {
    for (const [k, spec] of Object.entries(FIELD_SPECS[g])) {
      const value = (DEFAULT_SCENARIO[g] as unknown as Record<string, unknown>)[k];
      const unit = spec.unit ? ` (${spec.unit})` : "";
      rows.push(
        `| \`${g}.${k}\` | ${JSON.stringify(value)} | ${describeAllowed(spec)} | ${spec.label}${unit}: ${spec.help} |`,
      );
    }
  }
  return rows.join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(scenarioTable());
