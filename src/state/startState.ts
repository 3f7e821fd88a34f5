/**
 * The page's state starts here, once (src/main.tsx, before the address is read): the parts of the
 * address the first load needs are registered, in ADDRESS_PARTS' order (addressParts.ts, the one
 * table of them), with the subscriptions that write the address when those stores change. Nothing
 * is wired by importing a store. The parts of views loaded on demand (the step, the lab, live
 * training, the tornado, the story's bucket and GPU price) register when their code loads, in
 * their rows' places of the same table.
 */
import { startExplorerAddress } from "./explorerStore.ts";
import { startMcAddress } from "./mcStore.ts";
import { startAppAddress } from "./store.ts";

/** Each start and the rows of ADDRESS_PARTS it registers, in the table's order. */
const STARTS: readonly (readonly [rows: string, start: () => void])[] = [
  ["v, s, ch, hide", startAppAddress],
  ["mcp, mcn, base", startMcAddress],
  ["w, fl, sw", startExplorerAddress],
];

let started = false;

/** Registers the first load's address parts and their subscriptions; a second call does nothing. */
export function startState(): void {
  if (started) return;
  started = true;
  for (const [, start] of STARTS) start();
}
