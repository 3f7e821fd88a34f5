import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { encodeLinkPayload } from "../link/scenarioLink.ts";
import { echo, hasRawControl, MAX_MESSAGE_CHARS, terminalLine } from "./echo.ts";
import { APP_URL, simCommand } from "./simCommand.ts";

const dir = mkdtempSync(join(tmpdir(), "echo-cli-"));
function tempFile(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const CLEAR_AND_FAKE = "\u001b[2J\u001b[31mRED ETTR 99.9%";

describe("echo", () => {
  it("writes control characters as visible escapes and keeps the rest", () => {
    expect(echo("a\u0000b")).toBe("a\\u0000b");
    expect(echo(CLEAR_AND_FAKE)).toBe("\\u001b[2J\\u001b[31mRED ETTR 99.9%");
    expect(echo("\u009b2J\u202eabc")).toBe("\\u009b2J\\u202eabc");
    expect(echo("Llama 3 · 8B ✓")).toBe("Llama 3 · 8B ✓");
  });

  it("cuts long input, says where, and never inside a surrogate pair", () => {
    const cutAt = echo(`${"x".repeat(199)}😀tail`);
    expect(cutAt).toBe(`${"x".repeat(199)}… (cut here: 6 more characters)`);
    expect(echo("y".repeat(900_000)).length).toBeLessThan(300);
  });

  it("a message is one bounded line", () => {
    const line = terminalLine(`bad\nthing ${"k".repeat(900_000)}`);
    expect(line).not.toMatch(/\n/);
    expect(line.length).toBeLessThan(MAX_MESSAGE_CHARS + 60);
    expect(line).toMatch(/cut here: [\d,]+ more characters\)$/);
  });
});

describe("the CLI prints no raw control character from its input", () => {
  it("a share link's scenario name cannot clear the screen or recolour the table", async () => {
    const link = `${APP_URL}#s=${encodeLinkPayload({ name: CLEAR_AND_FAKE, cluster: { gpus: 4096, replicas: 8 } })}`;
    const r = await simCommand([link]);
    expect(r.code).toBe(0);
    expect(hasRawControl(r.stdout)).toBe(false);
    expect(r.stdout).toContain("\\u001b[2J\\u001b[31mRED ETTR 99.9%");
    const json = await simCommand([link, "--json"]);
    expect(hasRawControl(json.stdout)).toBe(false);
    expect(JSON.parse(json.stdout).scenario.name).toBe(CLEAR_AND_FAKE);
  });

  it("a name with NUL, an unknown key with escapes and a 900,000-character key are escaped and cut", async () => {
    const nul = await simCommand([
      tempFile("nul.json", JSON.stringify({ name: "a\u0000b" })),
      "--seeds",
      "1",
    ]);
    expect(hasRawControl(nul.stdout)).toBe(false);
    expect(nul.stdout).toContain("a\\u0000b");
    const key = await simCommand([
      tempFile("key.json", JSON.stringify({ cluster: { [CLEAR_AND_FAKE]: 1 } })),
    ]);
    expect(key.code).toBe(2);
    expect(hasRawControl(key.stderr)).toBe(false);
    expect(key.stderr).toContain("\\u001b[2J");
    const huge = await simCommand([tempFile("huge.json", JSON.stringify({ ["k".repeat(900_000)]: 1 }))]);
    expect(huge.code).toBe(2);
    expect(huge.stderr.length).toBeLessThan(MAX_MESSAGE_CHARS + 100);
    expect(huge.stderr).toMatch(/cut here/);
  });

  it("escapes first, then cuts: a key of 4,000 ESCs quotes 200 characters, not 24 KB", async () => {
    const escapes = await simCommand([
      tempFile("esc.json", JSON.stringify({ cluster: { ["\u001b".repeat(4000)]: 1 } })),
    ]);
    expect(escapes.code).toBe(2);
    expect(hasRawControl(escapes.stderr)).toBe(false);
    const quoted = /cluster\.((?:\\u001b)+)…/.exec(escapes.stderr)?.[1] ?? "";
    expect(quoted.length).toBeLessThanOrEqual(200);
    expect(quoted.length % 6).toBe(0);
    expect(escapes.stderr.length).toBeLessThan(1000);
    expect(echo("\u001b".repeat(4000)).length).toBeLessThan(260);
  });

  it("arguments and paths are escaped", async () => {
    const r = await simCommand([`--s\u001b[2Jeeds`]);
    expect(hasRawControl(r.stderr)).toBe(false);
    const missing = await simCommand([join(dir, "no\u001b[31mfile.json")]);
    expect(hasRawControl(missing.stderr)).toBe(false);
    expect(missing.stderr).toContain("no\\u001b[31mfile.json");
  });

  it("npm run step escapes parameter names and errors", { timeout: 30_000 }, () => {
    const model = tempFile(
      "model.json",
      JSON.stringify([
        { name: `w${CLEAR_AND_FAKE}`, shape: [4], dtype: "float32" },
        { name: "b\u0085", shape: [4], dtype: "float32" },
      ]),
    );
    const step = (...args: string[]) =>
      spawnSync(process.execPath, ["--import", "tsx", join(import.meta.dirname, "step.ts"), ...args], {
        encoding: "utf8",
      });
    const table = step(model);
    expect(table.status).toBe(0);
    expect(hasRawControl(table.stdout)).toBe(false);
    expect(table.stdout).toContain("w\\u001b[2J");
    const json = step(model, "--json");
    expect(hasRawControl(json.stdout)).toBe(false);
    expect(JSON.parse(json.stdout).buckets[0].params).toContain("b\u0085");
    const bad = step(tempFile("bad.json", JSON.stringify([{ name: CLEAR_AND_FAKE, dtype: "x" }])));
    expect(bad.status).toBe(2);
    expect(hasRawControl(bad.stderr)).toBe(false);
  });
});
