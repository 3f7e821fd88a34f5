/**
 * The test realms' entry point, as src/main.tsx is the page's: vitest.config.ts's setupFiles, and
 * the first import of every e2e spec that reads scenarios. It imports the registry, which
 * registers the plug-in list, so that a test of the scenario alone validates `policies` against
 * the same strategies the app, its workers and the CLI know.
 */
import "../sim/policies/index.ts";
