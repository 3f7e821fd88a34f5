/**
 * The README is for users: it stays short, names only commands that exist, points only at files
 * in this repository, and counts what the app has (the story's chapters) from the code.
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ADDRESS_KEYS } from "../state/address.ts";
import { CHAPTER_IDS } from "../state/storyChapters.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const readme = readFileSync(`${ROOT}README.md`, "utf8");
const scripts = Object.keys(
  (JSON.parse(readFileSync(`${ROOT}package.json`, "utf8")) as { scripts: Record<string, string> }).scripts,
);
const NUMBERS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];

describe("README.md", () => {
  it("is at most 210 lines of prose, the generated field table aside (it grows with the schema)", () => {
    const table = /<!-- scenario-table:start[\s\S]*?<!-- scenario-table:end/.exec(readme);
    expect(table).not.toBeNull();
    const prose = readme.replace(table![0], "");
    expect(prose.split("\n").length).toBeLessThanOrEqual(210);
  });

  it("names only npm scripts that exist", () => {
    const named = [...readme.matchAll(/npm run (?:-s )?([\w:]+)/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((s) => !scripts.includes(s))).toEqual([]);
  });

  it("links only to files in this repository, and they exist", () => {
    const targets = [...readme.matchAll(/\]\(([^)#]+)\)/g)]
      .map((m) => m[1]!)
      .filter((t) => !/^https?:/.test(t));
    expect(targets).toContain("docs/model.md");
    expect(targets.filter((t) => t.startsWith("..") || !existsSync(`${ROOT}${t}`))).toEqual([]);
    expect(readme).not.toMatch(/\.\.\/shared\//);
  });

  it("gives the story's chapter count the app has", () => {
    expect(readme).toContain(`${NUMBERS[CHAPTER_IDS.length]} short chapters`);
  });

  it("points to docs/links.md, which describes every key a link may hold (src/state/address.ts's ADDRESS_KEYS)", () => {
    expect(readme).toContain("[docs/links.md](docs/links.md)");
    const links = readFileSync(`${ROOT}docs/links.md`, "utf8");
    expect(Object.keys(ADDRESS_KEYS).filter((k) => !links.includes(`| \`${k}=\` |`))).toEqual([]);
  });

  it("gives each benchmark figure with the command that prints it", () => {
    const table = readme.split("## Performance")[1]?.split("\n## ")[0] ?? "";
    const rows = table.split("\n").filter((l) => l.startsWith("| ") && !l.startsWith("| what"));
    expect(rows.length).toBeGreaterThan(5);
    for (const row of rows) expect(row, row).toMatch(/`npm run bench(:\w+)?`/);
  });
});
