/**
 * Every policy's colour is one theme variable, defined once per theme in styles.css, and no
 * stylesheet names a policy: charts read `--policy`, set from the registry (policyColour.ts).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { policyOf } from "../sim/policies/index.ts";
import { V3_POLICIES } from "../testing/scenario.arbitrary.ts";
import { policyColour, policyStyle } from "./policyColour.ts";

const UI = import.meta.dirname;
const styles = readFileSync(join(UI, "styles.css"), "utf8");
const block = (selector: string) => {
  const at = styles.indexOf(`${selector} {`);
  return styles.slice(at, styles.indexOf("\n}", at));
};
const LIGHT = block(":root");
const DARK = block(':root[data-theme="dark"]');
const valueIn = (css: string, name: string) => new RegExp(`^\\s*${name}:\\s*([^;]+);`, "m").exec(css)?.[1];
const policies = V3_POLICIES.map((k) => policyOf(k));

function cssFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? cssFiles(join(dir, e.name)) : e.name.endsWith(".css") ? [join(dir, e.name)] : [],
  );
}

describe("policy colours", () => {
  it("each policy's variable is defined in the light and the dark theme, and its fallback is the light value", () => {
    for (const p of policies) {
      expect(valueIn(LIGHT, p.colour.cssVar), `${p.key} light`).toBe(p.colour.fallback);
      expect(valueIn(DARK, p.colour.cssVar), `${p.key} dark`).toMatch(/^#[0-9a-f]{6}$/);
    }
  });

  it("the policies' colours differ from each other in each theme", () => {
    for (const theme of [LIGHT, DARK]) {
      const values = policies.map((p) => valueIn(theme, p.colour.cssVar));
      expect(new Set(values).size).toBe(policies.length);
    }
  });

  it("no stylesheet names a policy's colour or class: each reads --policy", () => {
    const named = policies.flatMap((p) => [
      `var(${p.colour.cssVar})`,
      `var(${p.colour.cssVar},`,
      `.policy-${p.key}`,
    ]);
    for (const file of cssFiles(UI).filter((f) => !f.endsWith("styles.css"))) {
      const css = readFileSync(file, "utf8");
      for (const n of named) expect(css.includes(n), `${file} has ${n}`).toBe(false);
    }
  });

  it("sets --policy from the registry entry", () => {
    for (const p of policies) {
      expect(policyColour(p.key)).toBe(`var(${p.colour.cssVar}, ${p.colour.fallback})`);
      expect(policyStyle(p.key)).toEqual({ "--policy": policyColour(p.key) });
    }
  });
});
