/**
 * The plug-in list: every strategy (policy) the app, its workers and the CLI know, one line each,
 * in display order (the order of every column, card, lane and JSON key). Like Perfetto's plugin
 * index, it is the one place a strategy is named: the registry (index.ts) registers this list when
 * it is first imported, and every entry point reaches it (src/testing/pluginList.test.ts checks
 * that), so the strategy picker, the page's views, the workers, the link's validator, the CLI and
 * its --help all see the same strategies.
 *
 * A new strategy is one folder, src/sim/policies/<name>/, whose index.ts exports a Policy
 * (policy.ts: key, labels, colour, CSV prefix, run, closed form), plus its line here. Keys and CSV
 * prefixes are public contracts: never change or reorder the ones below.
 */
import { dilocoPolicy } from "./diloco/index.ts";
import { ftHsdpPolicy } from "./ftHsdp/index.ts";
import { hotSparePolicy } from "./hotSpare/index.ts";
import { inMemoryPolicy } from "./inMemory/index.ts";
import type { Policy } from "./policy.ts";
import { synchronousPolicy } from "./synchronous/index.ts";

export const PLUGINS: readonly Policy[] = [
  synchronousPolicy,
  ftHsdpPolicy,
  inMemoryPolicy,
  hotSparePolicy,
  dilocoPolicy,
];
