/**
 * The source tree's import graph, read with TypeScript's own pre-processor, so that the
 * architecture tests (importGraph.test.ts) see exactly the imports the compiler sees: `import
 * type`, `export … from`, side-effect imports and dynamic `import()`, plus the worker entries
 * that Vite follows through `new URL("…", import.meta.url)`. Node-only: tests use it, the app
 * never does.
 */

import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative, sep } from "node:path";
import ts from "typescript";

export interface ImportEdge {
  /** Importing file, relative to the root, with forward slashes. */
  from: string;
  /** The imported module: a root-relative path for relative imports, else the bare specifier. */
  to: string;
  /** The specifier as written. */
  specifier: string;
}

const SOURCE = /\.(ts|tsx|mts|mjs|js)$/;
const WORKER_URL = /new\s+URL\(\s*["']([^"']+)["']\s*,\s*import\.meta\.url\s*\)/g;

function sourceFiles(root: string, dir: string, out: string[]): string[] {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) sourceFiles(root, path, out);
    else if (SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

function toPosix(path: string): string {
  return path.split(sep).join("/");
}

/** Every import of every source file under `dirs` (root-relative folders). */
export function importEdges(root: string, dirs: readonly string[]): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const dir of dirs) {
    for (const file of sourceFiles(root, dir, [])) {
      const text = readFileSync(join(root, file), "utf8");
      const specifiers = ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
      for (const m of text.matchAll(WORKER_URL)) specifiers.push(m[1]!);
      for (const specifier of specifiers) {
        const to = specifier.startsWith(".")
          ? toPosix(relative(root, normalize(join(root, dirname(file), specifier))))
          : specifier;
        edges.push({ from: file, to, specifier });
      }
    }
  }
  return edges;
}

/** Tests, and the test-support folder, are not production code. */
export function isTestSupport(file: string): boolean {
  return /\.test\.tsx?$/.test(file) || file.startsWith("src/testing/");
}

/** The folder right under src/ that a root-relative path sits in ("ui", "sim", …), or the file name at src/'s top. */
export function srcFolder(file: string): string {
  return file.split("/")[1] ?? file;
}

/**
 * The strongly connected components of more than one file (Tarjan), each sorted: the import
 * circles. Only edges between files in the graph count.
 */
export function circles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) {
    if (!next.has(e.from)) next.set(e.from, []);
    next.get(e.from)!.push(e.to);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  // Recursion depth is bounded by the longest import chain (tens of files), not the file count.
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!next.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return found;
}

/**
 * The layers of src/, top to bottom (README.md, "Layout"): a folder imports only folders of a
 * lower rank. main.tsx and cli/ are entry points: nothing imports them.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ["main.tsx", "cli"],
  ["ui"],
  ["state"],
  ["worker"],
  ["link", "lab"],
  ["train"],
  ["export", "gpu"],
  ["sim", "step"],
];

export function rankOf(folder: string): number | undefined {
  const r = LAYERS.findIndex((layer) => layer.includes(folder));
  return r < 0 ? undefined : r;
}

/** "from -> specifier" for each import between src/ folders that does not point down a layer. */
export function upwardImports(list: readonly ImportEdge[]): string[] {
  const bad: string[] = [];
  for (const e of list) {
    if (!e.to.startsWith("src/")) continue;
    const a = srcFolder(e.from);
    const b = srcFolder(e.to);
    if (a === b) continue;
    const ra = rankOf(a);
    const rb = rankOf(b);
    if (ra === undefined || rb === undefined || rb <= ra) bad.push(`${e.from} -> ${e.specifier}`);
  }
  return bad;
}
