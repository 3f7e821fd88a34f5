/**
 * `npm run papers [-- --json | --write]`: the published claims beside the model's values, the same
 * rows as the Papers view, computed here from each claim's scenario (src/sim/papers). `--write`
 * records the values the page shows (src/sim/papers/papers-recorded.json; a test keeps them equal
 * to a fresh computation). Bad input: one line on stderr, exit 2.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { claimHash } from "../link/claimLink.ts";
import type { ClaimRow } from "../sim/papers/claimTypes.ts";
import { claimRows, claimScenario } from "../sim/papers/rows.ts";
import { modelText, verdictNote, verdictText } from "../sim/papers/words.ts";
import { echo } from "./echo.ts";
import { APP_URL } from "./simCommand.ts";

export const PAPERS_HELP = `usage: npm run papers -- [--json | --write]

Each published claim (FT-HSDP, Llama 3, Kokolis et al., ByteRobust, AIReSim, Greyhound,
Decoupled DiLoCo) beside the model's value on the scenario that encodes the source's
assumptions: the mean over the row's runs with its 95 % interval, and the verdict (within the
published figure's interval, or off by how much, with the likeliest reason). Every row's link
opens the Cluster view on its scenario, running the same seeds.

  --json    one JSON object: {"rows": [{id, claim, source, published, metric, model, verdict, link}]}
  --write   record the values the Papers view shows (src/sim/papers/papers-recorded.json)
  --help    this text
`;

const RECORDED_PATH = fileURLToPath(new URL("../sim/papers/papers-recorded.json", import.meta.url));

function linkOf(row: ClaimRow): string {
  return `${APP_URL}${claimHash(claimScenario(row.claim), row.claim.runs)}`;
}

function table(rows: readonly ClaimRow[]): string {
  const out: string[] = [];
  for (const r of rows) {
    const c = r.claim;
    out.push(`${c.id}: ${c.claim}`);
    out.push(`  source:    ${c.source.title} (${c.source.year}), ${c.source.where}`);
    out.push(`  published: ${c.published.text}`);
    out.push(`  model:     ${modelText(c.metric, r.model)}`);
    out.push(`  verdict:   ${verdictText(r)}`);
    const note = verdictNote(r);
    if (note) out.push(`  why:       ${note}`);
    out.push(`  assumes:   ${c.assumptions}`);
    out.push(`  link:      ${linkOf(r)}`);
    out.push("");
  }
  return out.join("\n");
}

function json(rows: readonly ClaimRow[]): string {
  return `${JSON.stringify(
    {
      rows: rows.map((r) => ({
        id: r.claim.id,
        claim: r.claim.claim,
        source: r.claim.source,
        published: r.claim.published,
        metric: r.claim.metric,
        assumptions: r.claim.assumptions,
        calibrated: r.claim.calibrated ?? null,
        model: r.model,
        verdict: r.verdict,
        link: linkOf(r),
      })),
    },
    null,
    2,
  )}\n`;
}

/** The recorded file: each claim's value, keyed by id, in the table's order. */
export function recordedJson(rows: readonly ClaimRow[]): string {
  const values: Record<string, ClaimRow["model"]> = {};
  for (const r of rows) values[r.claim.id] = r.model;
  return `${JSON.stringify({ values }, null, 2)}\n`;
}

export function papersCommand(argv: readonly string[]): { code: number; stdout: string; stderr: string } {
  if (argv.includes("--help") || argv.includes("-h")) return { code: 0, stdout: PAPERS_HELP, stderr: "" };
  const unknown = argv.find((a) => a !== "--json" && a !== "--write");
  if (unknown !== undefined)
    return {
      code: 2,
      stdout: "",
      stderr: `papers: unknown option ${echo(unknown)}; see npm run papers -- --help\n`,
    };
  const rows = claimRows();
  if (argv.includes("--write")) {
    writeFileSync(RECORDED_PATH, recordedJson(rows));
    return { code: 0, stdout: `papers: recorded ${rows.length} rows in ${RECORDED_PATH}\n`, stderr: "" };
  }
  return { code: 0, stdout: argv.includes("--json") ? json(rows) : table(rows), stderr: "" };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { code, stdout, stderr } = papersCommand(process.argv.slice(2));
  process.stdout.write(stdout);
  process.stderr.write(stderr);
  process.exitCode = code;
}
