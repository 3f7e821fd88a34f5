/**
 * A link's parts are read in ADDRESS_PARTS' order, not in the order their modules happened to
 * load: a part that reads another's state (the sweep's axis checked against the scenario's causes)
 * sees the link's, however the imports are arranged.
 */
import { describe, expect, it } from "vitest";
import { ADDRESS_KEYS, readAddress, registerAddressPart } from "./address.ts";
import { ADDRESS_PARTS } from "./addressParts.ts";

describe("the address's parts", () => {
  it("are read in the table's order whichever registers first", () => {
    const read: string[] = [];
    const part = (key: "s" | "sw" | "v") =>
      registerAddressPart({
        keys: [key],
        read: () => {
          read.push(key);
        },
        write: () => ({}),
      });
    // Registered backwards: the sweep's part, the scenario's, then the view's.
    const off = [part("sw"), part("s"), part("v")];
    readAddress("#v=cluster&s=x&sw=y");
    expect(read).toEqual(["v", "s", "sw"]);
    for (const f of off) f();
  });

  it("are the table's rows: keys grouped otherwise are refused when registered", () => {
    expect(() => registerAddressPart({ keys: ["tr"], read: () => undefined, write: () => ({}) })).toThrow(
      /no part of ADDRESS_PARTS/,
    );
    // Every key of the address is in exactly one row.
    expect(ADDRESS_PARTS.flat()).toHaveLength(new Set(ADDRESS_PARTS.flat()).size);
    expect(new Set(ADDRESS_PARTS.flat())).toEqual(new Set(Object.keys(ADDRESS_KEYS)));
  });
});
