// Entry of `npm run sim`: the CLI as plain JavaScript, bundled by esbuild once per change of its
// sources. Loading the TypeScript through tsx costs a few hundred ms in the main thread and as
// much again in each Monte Carlo worker thread, about as long as a 1,000-seed run: the bundle is
// what lets a second core pay off (`npm run bench:cli`).
//
// The bundles live in .cache/sim/<key>/, where the key hashes the contents of every project file
// the last build read (esbuild's metafile), package-lock.json (the packages bundled in), esbuild's
// package.json (its version) and this file. A run compares those files' sizes and modification
// times with the ones the manifest recorded (a stat each; loading node:crypto alone costs ~10 ms);
// when one differs it hashes the contents, and rebuilds only when they changed.
//
// Split into chunks (esbuild's `splitting`): the entry loads only what starts the Monte Carlo's
// workers, then imports the command with the schema code (zod, four fifths of the bytes), so the
// workers start while the main thread still parses and runs that.
//
// The worker bundle is named monteCarloWorker.boot.mjs, the name parallelMonteCarlo.ts resolves
// beside itself: in the bundle that is this worker, in the TypeScript the tsx boot entry.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const cache = join(root, ".cache", "sim");
const manifestFile = join(cache, "manifest.json");
/** Builds kept, the newest first, so a run that started on an older one can still start its workers. */
const KEEP_BUILDS = 3;

const ENTRIES = [
  { in: "src/cli/sim.ts", out: "sim" },
  { in: "src/cli/monteCarloWorker.ts", out: "monteCarloWorker.boot" },
  // For bench/cli.ts: the in-process Monte Carlo, timed as the bundled CLI runs it.
  { in: "src/cli/parallelMonteCarlo.ts", out: "parallelMonteCarlo" },
];

async function keyOf(inputs) {
  const { createHash } = await import("node:crypto");
  const h = createHash("sha256");
  for (const path of inputs)
    h.update(`${path}\0`)
      .update(readFileSync(join(root, path)))
      .update("\0");
  return h.digest("hex").slice(0, 16);
}

function stamp(path) {
  const st = statSync(join(root, path));
  return `${st.size}:${st.mtimeMs}`;
}

function writeManifest(key, inputs) {
  const tmp = `${manifestFile}.${process.pid}`;
  writeFileSync(tmp, JSON.stringify({ key, inputs, stamps: inputs.map(stamp) }));
  renameSync(tmp, manifestFile);
}

/** The current build's folder, or null when a source changed since (or there is none). */
async function current() {
  try {
    const { key, inputs, stamps } = JSON.parse(readFileSync(manifestFile, "utf8"));
    const dir = join(cache, key);
    if (!statSync(join(dir, "sim.mjs")).isFile()) return null;
    if (inputs.every((path, i) => stamp(path) === stamps[i])) return dir;
    // Touched (a checkout, a save without change): the same contents keep the build.
    if ((await keyOf(inputs)) !== key) return null;
    writeManifest(key, inputs);
    return dir;
  } catch {
    // No manifest, a deleted input, a removed build: build again.
    return null;
  }
}

async function build() {
  const esbuild = await import("esbuild");
  mkdirSync(cache, { recursive: true });
  const tmp = join(cache, `tmp-${process.pid}-${Date.now()}`);
  try {
    const { metafile } = await esbuild.build({
      absWorkingDir: root,
      entryPoints: ENTRIES,
      outdir: tmp,
      outExtension: { ".js": ".mjs" },
      bundle: true,
      platform: "node",
      format: "esm",
      splitting: true,
      target: "node20",
      metafile: true,
      logLevel: "error",
    });
    const esbuildPackage = join(dirname(fileURLToPath(import.meta.resolve("esbuild"))), "..", "package.json");
    const inputs = [
      ...Object.keys(metafile.inputs).filter((p) => !p.includes("node_modules/")),
      "package-lock.json",
      relative(root, fileURLToPath(import.meta.url)),
      relative(root, esbuildPackage),
    ].sort();
    const key = await keyOf(inputs);
    const dir = join(cache, key);
    try {
      renameSync(tmp, dir);
    } catch {
      // Another run built the same sources first: its build is this one.
    }
    writeManifest(key, inputs);
    prune(key);
    return dir;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Builds past the newest KEEP_BUILDS go (by modification time), and leftovers of failed builds. */
function prune(key) {
  const builds = readdirSync(cache, { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name !== key)
    .map((e) => ({ path: join(cache, e.name), mtime: statSync(join(cache, e.name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  const hour = 3600_000;
  for (const [i, old] of builds.entries()) {
    const stale = old.path.includes("tmp-") ? Date.now() - old.mtime > hour : i >= KEEP_BUILDS - 1;
    if (stale) rmSync(old.path, { recursive: true, force: true });
  }
}

/** The folder of an up-to-date build of the CLI (building it when a source changed). */
export async function cliBundle() {
  return (await current()) ?? (await build());
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await import(pathToFileURL(join(await cliBundle(), "sim.mjs")).href);
}
