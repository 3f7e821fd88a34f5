import { describe, expect, it } from "vitest";
import { PLUGINS } from "./pluginList.ts";
import { isPolicyKey, policiesAllowed, policyKeys, registerPolicyKey } from "./policyKeys.ts";

describe("the policies' keys", () => {
  it("a registered key is selectable and named in the refusal's allowed values, until it is removed", () => {
    const listed = PLUGINS.map((p) => p.key);
    expect(policyKeys()).toEqual(listed);
    const off = registerPolicyKey("laterPolicy");
    try {
      expect(isPolicyKey("laterPolicy")).toBe(true);
      expect(policyKeys()).toEqual([...listed, "laterPolicy"]);
      expect(policiesAllowed()).toContain('"laterPolicy"');
    } finally {
      off();
    }
    expect(isPolicyKey("laterPolicy")).toBe(false);
    expect(policiesAllowed()).not.toContain("laterPolicy");
  });
});
