/**
 * Every source a preset states (the Cluster view's presets, One step's link presets) cites what a
 * reader can open: a file of this repository (docs/model.md, by a section it has) or a paper or
 * project outside it, never a design file that lives beside the repository.
 */
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PRESETS } from "../sim/presets.ts";
import { LINK_PRESETS } from "../step/collectiveCost.ts";

const root = new URL("../../", import.meta.url);
const modelSections = new Set(
  [...readFileSync(new URL("docs/model.md", root), "utf8").matchAll(/^## (\d+)\./gm)].map((m) => m[1]),
);

const sources = [
  ...PRESETS.map((p) => ({ id: p.id, source: p.source })),
  ...LINK_PRESETS.map((l) => ({ id: l.id, source: l.source })),
];

describe("preset sources", () => {
  it.each(sources)("$id cites only files in the repository, and sections they have", ({ source }) => {
    for (const m of source.matchAll(/([\w./-]+\.md)\b(?: §(\d+))?/g)) {
      const [, file, section] = m;
      expect(existsSync(new URL(file as string, root)), `${file} is not in the repository`).toBe(true);
      if (section && file === "docs/model.md") expect(modelSections.has(section), `§${section}`).toBe(true);
    }
  });
});
