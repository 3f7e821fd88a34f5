import { describe, expect, it } from "vitest";
import { LinkError } from "./linkError.ts";
import { decodeLogKindsParam, LOG_KINDS, logKindsParam } from "./logKinds.ts";

describe("fl=, the failure log's filter", () => {
  it("is left out when every kind is listed, so a link from before lists every row", () => {
    expect(logKindsParam([...LOG_KINDS])).toBe("");
    expect(decodeLogKindsParam(undefined)).toEqual([...LOG_KINDS]);
  });

  it("reads back what it writes, in one order", () => {
    for (const kinds of [[], ["slow"], ["eviction", "failure"], ["slow", "eviction"]] as const) {
      const v = logKindsParam(kinds);
      expect(v).not.toBe("");
      expect(decodeLogKindsParam(v)).toEqual(
        LOG_KINDS.filter((k) => (kinds as readonly string[]).includes(k)),
      );
    }
    expect(logKindsParam(["eviction", "failure"])).toBe("failure,eviction");
    expect(logKindsParam([])).toBe("none");
  });

  it("refuses an unknown or repeated kind by its key", () => {
    for (const v of ["slowness", "slow,slow", "failure,", "FAILURE"]) {
      expect(() => decodeLogKindsParam(v)).toThrow(LinkError);
      expect(() => decodeLogKindsParam(v)).toThrow(/fl=/);
    }
  });
});
