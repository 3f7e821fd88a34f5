/** The folder of an up-to-date build of the CLI (sim.mjs, monteCarloWorker.boot.mjs, parallelMonteCarlo.mjs). */
export function cliBundle(): Promise<string>;
