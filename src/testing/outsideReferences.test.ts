/**
 * Comments a reader of the repository can follow. None cites a file outside it (the design notes
 * and reference folder the code was first written against are not shipped), so every citation
 * points at docs/, README.md or the code itself. None cites the project's tracker by number either
 * (an issue, an issue's item, or a round of work named as a milestone), which a reader cannot open:
 * a comment says the bound, the measurement or the reason itself. A round of DiLoCo or of seeds is
 * no milestone: only "round N" written as a time is one (its possessive, in parentheses, after
 * "in", "since" or "of", or capitalised before a colon), so "the sync ending round 2" and "the
 * first round 20 seeds" pass; a DiLoCo round that needs one of those forms is "the second round".
 * Another project's public tracker, cited the way its own links read ("HTA issues #122"), can be
 * opened and passes.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const DIRS = ["src", "scripts", "bench", "e2e"];
const SELF = "src/testing/outsideReferences.test.ts";
const OUTSIDE = /\b(DESIGN|SIMULATION|FACTS)\.md\b|\.\.\/shared\b|\bshared\/(design|reference)\b/g;
/** An issue (with its items, `issue 18.2`, or a list, `issues 3 and 4`), or a round named as a time. */
const TRACKER = new RegExp(
  [
    String.raw`\b[Ii]ssues? \d+(?:\.\d+)?(?:(?:, | and )\d+(?:\.\d+)?)*`,
    String.raw`\b[Rr]ound \d+'s\b`,
    String.raw`\([Rr]ound \d+\)`,
    String.raw`\b(?:in|since|of) round \d+\b`,
    String.raw`\bRound \d+:`,
  ].join("|"),
  "g",
);

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" ? [] : sources(path);
    return /\.(ts|tsx|mjs)$/.test(e.name) ? [path] : [];
  });
}

/** The comments of a file, each with its line: block comments and line comments. */
function comments(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  for (const m of text.matchAll(/\/\*[\s\S]*?\*\/|(?<![:"'`\\])\/\/[^\n]*/g)) {
    out.push({ line: text.slice(0, m.index).split("\n").length, text: m[0] });
  }
  return out;
}

/** Each match of `pattern` (a global regular expression) in a comment of the file, as `path:line: match`. */
function referencesIn(path: string, text: string, pattern: RegExp): string[] {
  return comments(text).flatMap((c) =>
    [...c.text.matchAll(pattern)].map((m) => `${path}:${c.line}: ${m[0]}`),
  );
}

/** Each match of `pattern` in the comments of every source file but this one. */
function referencesInSources(pattern: RegExp): string[] {
  const files = DIRS.flatMap(sources);
  expect(files.length).toBeGreaterThan(300);
  return files
    .filter((f) => f !== SELF)
    .flatMap((f) => referencesIn(f, readFileSync(join(ROOT, f), "utf8"), pattern));
}

describe("comments", () => {
  it("cite no file outside the repository", () => {
    expect(referencesInSources(OUTSIDE)).toEqual([]);
  });

  it("the check finds a citation in a block and in a line comment, and not in code", () => {
    const text = `/**\n * See DESIGN.md.\n */\nconst a = 1; // ../shared/reference/x.py\nconst p = "FACTS.md";\n`;
    expect(referencesIn("x.ts", text, OUTSIDE)).toEqual(["x.ts:1: DESIGN.md", "x.ts:4: ../shared"]);
  });

  it("cite no issue or round of the project's tracker by number", () => {
    expect(referencesInSources(TRACKER)).toEqual([]);
  });

  it("the tracker check finds issues and milestone rounds in comments, not code or rounds of DiLoCo", () => {
    const text = [
      "/**",
      " * The bound (issue 12), as issues 3 and 4 asked; Issue 18.2 too.",
      " * Measured in round 7, since round 9 and at the start of round 6; round 5's axes (round 5).",
      " */",
      'const a = "issue 30"; // Round 10: 361,932 bytes.',
      "// DiLoCo: replica 2 dies in the sync ending round 2, then round 1 afresh; rounds of seeds,",
      "// the first round 20 seeds, then round figures; an issue of precision, 12 issues, HTA issues #122.",
      'it("issue 30", () => {});',
    ].join("\n");
    expect(referencesIn("x.ts", text, TRACKER)).toEqual([
      "x.ts:1: issue 12",
      "x.ts:1: issues 3 and 4",
      "x.ts:1: Issue 18.2",
      "x.ts:1: in round 7",
      "x.ts:1: since round 9",
      "x.ts:1: of round 6",
      "x.ts:1: round 5's",
      "x.ts:1: (round 5)",
      "x.ts:5: Round 10:",
    ]);
  });
});
