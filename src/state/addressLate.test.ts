/**
 * A part of the address that registers late (a view's code loads on demand, after the address
 * was read) still gets its keys: until it registers they ride along in every address written, and
 * when it registers it is handed them as last read (address.ts's registerAddressPart).
 */
import { describe, expect, it } from "vitest";
import { DISPLAY_SETTINGS } from "../link/displaySettings.ts";
import { LinkError } from "../link/linkError.ts";
import { ADDRESS_KEYS, addressStore, composeAddress, readAddress, registerAddressPart } from "./address.ts";

describe("a part that registers after the address was read", () => {
  it("keeps its keys until then, then reads them, and writes its own from there on", () => {
    const owned: string[] = [];
    const early = registerAddressPart({
      keys: ["v"],
      read: (values) => {
        owned.push(`v=${values.get("v") ?? ""}`);
      },
      write: () => ({ v: "cluster" }),
    });
    expect(readAddress("#v=cluster&ch=3&bk=512")).toBeNull();
    // Nobody owns ch= and bk= yet: the address written keeps them as read.
    expect(composeAddress()).toBe("#v=cluster&ch=3&bk=512");

    let chapter: string | undefined = "unset";
    let value = "3";
    const late = registerAddressPart({
      keys: ["ch"],
      read: (values) => {
        chapter = values.get("ch");
      },
      write: () => ({ ch: value }),
    });
    // Handed the key as last read, at once.
    expect(chapter).toBe("3");
    value = "5";
    // Its own value now, and the key nobody owns still rides along.
    expect(composeAddress()).toBe("#v=cluster&ch=5&bk=512");
    // The next address read reaches it like any other part.
    readAddress("#v=cluster&ch=7");
    expect(chapter).toBe("7");
    expect(owned).toEqual(["v=cluster", "v=cluster"]);
    late();
    early();
  });

  it("says what was wrong with its keys when it registers, beside what was wrong before", () => {
    readAddress("#v=cluster&zz=1&lab=bad");
    const before = addressStore.getState().linkError;
    expect(before).toMatch(/"zz="/);
    const off = registerAddressPart({
      keys: ["lab"],
      read: (values) => {
        throw new LinkError(`The link's lab= "${values.get("lab")}" is not a lab setting.`);
      },
      write: () => ({}),
    });
    expect(addressStore.getState().linkError).toBe(`${before} The link's lab= "bad" is not a lab setting.`);
    off();
  });

  it("every display setting's link key is an address key", () => {
    for (const s of Object.values(DISPLAY_SETTINGS)) expect(Object.keys(ADDRESS_KEYS)).toContain(s.linkKey);
  });
});
