import { describe, expect, it } from "vitest";
import { isPolicyKey, POLICY_KEYS, policiesAllowed, policyKeys, registerPolicyKey } from "./policyKeys.ts";

describe("the policies' keys", () => {
  it("a registered key is selectable and named in the refusal's allowed values, until it is removed", () => {
    expect(policyKeys()).toEqual(POLICY_KEYS);
    const off = registerPolicyKey("laterPolicy");
    try {
      expect(isPolicyKey("laterPolicy")).toBe(true);
      expect(policyKeys()).toEqual([...POLICY_KEYS, "laterPolicy"]);
      expect(policiesAllowed()).toContain('"laterPolicy"');
    } finally {
      off();
    }
    expect(isPolicyKey("laterPolicy")).toBe(false);
    expect(policiesAllowed()).not.toContain("laterPolicy");
  });
});
