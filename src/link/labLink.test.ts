import { describe, expect, it } from "vitest";
import {
  DEFAULT_LAB_SETTINGS,
  decodeLabParam,
  encodeLabParam,
  encodeLabPayload,
  type LabSettings,
} from "./labLink.ts";
import { LinkError } from "./linkError.ts";

describe("lab settings in a link (lab=)", () => {
  it("leave the key out at the defaults and round-trip the run form and the fault plan", () => {
    expect(encodeLabParam(DEFAULT_LAB_SETTINGS)).toBe("");
    const s: LabSettings = {
      form: { mode: "cpu", devices: 16, bytesPerDevice: 262144 * 1024, algorithm: "one-shot" },
      fault: { mode: "separate", devices: 3, bytesPerDevice: 4096, victim: 2, killStep: null, slow: false },
    };
    const param = encodeLabParam(s);
    expect(param).toMatch(/^2\./);
    expect(decodeLabParam(param)).toEqual(s);
    const one = { ...DEFAULT_LAB_SETTINGS, fault: { ...DEFAULT_LAB_SETTINGS.fault, killStep: 0 } };
    expect(decodeLabParam(encodeLabParam(one))).toEqual(one);
  });

  it("refuse bad values, naming the field", () => {
    const bad = (value: object, message: RegExp) => {
      expect(() => decodeLabParam(encodeLabPayload(value))).toThrow(LinkError);
      expect(() => decodeLabParam(encodeLabPayload(value))).toThrow(message);
    };
    bad({ form: { devices: 17 } }, /form\.devices/);
    bad({ form: { bytesPerDevice: 1000 } }, /form\.bytesPerDevice: must be one of the lab's sizes/);
    bad({ fault: { bytesPerDevice: 64 * 1024 * 1024 } }, /fault\.bytesPerDevice/);
    bad({ form: { algorithm: "tree" } }, /form\.algorithm/);
    bad({ fault: { victim: 5, devices: 4 } }, /fault\.victim 5 is not one of 4 devices/);
    bad({ results: [] }, /results/);
    expect(() => decodeLabParam("2.AAAAAAAA")).toThrow(/integrity check/);
  });
});
