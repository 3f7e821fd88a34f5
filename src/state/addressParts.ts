/**
 * The address's parts, in the order a link is read: the one table of them. Each row is one part's
 * keys (registerAddressPart refuses keys grouped otherwise), and whenever a part's code loads it
 * is read in its row's place, so a part whose reading uses another's state comes after it:
 * - `v` before `s`: a scenario without a view is an old Cluster link;
 * - `s` before every part checked against the scenario (`w` fitted to its horizon, `sw` and `tn`
 *   naming its causes, `base`);
 * - `tm` before `t`/`tr`: a finished run is trained again in the link's mode, not with it refused.
 * The first ten rows are started with the page (src/state/startState.ts); the rest register when
 * their view's code loads (a first load fetches only its own view). The order keys are written
 * in is ADDRESS_KEYS' (src/link/linkKeys.ts), which links already carry and which stays.
 */
import type { ADDRESS_KEYS } from "../link/linkKeys.ts";

type AddressKey = keyof typeof ADDRESS_KEYS;

export const ADDRESS_PARTS = [
  // Started with the page, from startState.ts.
  ["v"],
  ["s"],
  ["ch"],
  ["hide"],
  ["mcp"],
  ["mcn"],
  ["base"],
  ["w"],
  ["fl"],
  ["sw"],
  // With their views.
  ["tn"],
  ["gph"],
  ["bk"],
  ["st"],
  ["lab"],
  ["lres"],
  ["lfd"],
  ["tm"],
  ["t", "tr"],
] as const satisfies readonly (readonly AddressKey[])[];

/** A part's row in ADDRESS_PARTS, or -1 when its keys are no row of it. */
export function addressPartRow(keys: readonly string[]): number {
  return ADDRESS_PARTS.findIndex((row) => row.length === keys.length && row.every((k, i) => keys[i] === k));
}
