/**
 * The state is wired in one place: importing the first load's stores registers nothing, and
 * startState() registers their parts, in ADDRESS_PARTS' order, once.
 */
import { describe, expect, it } from "vitest";
import { registeredAddressKeys } from "./address.ts";
import { ADDRESS_PARTS } from "./addressParts.ts";
import "./explorerStore.ts";
import "./mcStore.ts";
import "./store.ts";
import { startState } from "./startState.ts";

describe("startState", () => {
  it("registers the first load's parts in the table's order; importing the stores did not", () => {
    expect(registeredAddressKeys()).toEqual([]);
    startState();
    expect(registeredAddressKeys()).toEqual(ADDRESS_PARTS.slice(0, 10).flat());
    // A second start registers nothing twice (registering a key twice throws).
    startState();
    expect(registeredAddressKeys()).toHaveLength(10);
  });
});
