/**
 * Comments a reader of the repository can follow: none cites a file outside it (the design notes
 * and reference folder the code was first written against are not shipped), so every citation
 * points at docs/, README.md or the code itself.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const DIRS = ["src", "scripts", "bench", "e2e"];
const OUTSIDE = /\b(DESIGN|SIMULATION|FACTS)\.md\b|\.\.\/shared\b|\bshared\/(design|reference)\b/g;

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

function outsideReferences(path: string, text: string): string[] {
  return comments(text).flatMap((c) =>
    [...c.text.matchAll(OUTSIDE)].map((m) => `${path}:${c.line}: ${m[0]}`),
  );
}

describe("comments", () => {
  it("cite no file outside the repository", () => {
    const files = DIRS.flatMap(sources);
    expect(files.length).toBeGreaterThan(300);
    const found = files
      .filter((f) => f !== "src/testing/outsideReferences.test.ts")
      .flatMap((f) => outsideReferences(f, readFileSync(join(ROOT, f), "utf8")));
    expect(found).toEqual([]);
  });

  it("the check finds a citation in a block and in a line comment, and not in code", () => {
    const text = `/**\n * See DESIGN.md.\n */\nconst a = 1; // ../shared/reference/x.py\nconst p = "FACTS.md";\n`;
    expect(outsideReferences("x.ts", text)).toEqual(["x.ts:1: DESIGN.md", "x.ts:4: ../shared"]);
  });
});
