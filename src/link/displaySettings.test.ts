import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  checkSetting,
  DISPLAY_SETTINGS,
  type DisplaySetting,
  type DisplaySettingName,
  parseSetting,
  readSettingParam,
  settingAllowed,
  settingParam,
  toShown,
  toStored,
} from "./displaySettings.ts";
import { LinkError } from "./linkError.ts";

const NAMES = Object.keys(DISPLAY_SETTINGS) as DisplaySettingName[];
const row = (name: DisplaySettingName): DisplaySetting => DISPLAY_SETTINGS[name];

/** Every value a setting can hold: a choice, or a range's value on its decimals' grid. */
function shownValue(name: DisplaySettingName): fc.Arbitrary<number> {
  const s = row(name);
  if (s.kind === "choice") return fc.constantFrom(...s.choices);
  const scale = 10 ** s.decimals;
  return fc.integer({ min: Math.ceil(s.min * scale), max: Math.floor(s.max * scale) }).map((k) => k / scale);
}

/** Any number in a range (a field's value, a product of a unit crossing: 0.7000000000000001). */
function anyInRange(name: DisplaySettingName): fc.Arbitrary<number> {
  const s = row(name);
  if (s.kind === "choice") return fc.constantFrom(...s.choices);
  return fc
    .double({ min: s.min, max: s.max, noNaN: true })
    .filter((v) => s.decimals > 0 || Number.isInteger(v));
}

describe("the display settings' table", () => {
  it.each(NAMES)("%s: write → read gives the same value, for every value in range", (name) => {
    fc.assert(
      fc.property(shownValue(name), (v) => {
        const written = settingParam(name, v);
        expect(readSettingParam(name, written === "" ? undefined : written)).toBe(v);
      }),
      { numRuns: 500 },
    );
  });

  it.each(NAMES)("%s: any value the page accepts is written so that its own reader accepts it", (name) => {
    fc.assert(
      fc.property(anyInRange(name), (v) => {
        const kept = checkSetting(name, v);
        const written = settingParam(name, kept);
        expect(readSettingParam(name, written === "" ? undefined : written)).toBe(kept);
        // What the store keeps goes through its unit and back unchanged.
        expect(toShown(name, toStored(name, kept))).toBe(kept);
      }),
      { numRuns: 500 },
    );
  });

  it("writes a precision that crossed units rounded (0.7000000000000001 is never written)", () => {
    const stored = 0.007000000000000001; // 0.7 points as a fraction, after a float product
    expect(settingParam("mcPrecision", toShown("mcPrecision", stored))).toBe("0.7");
    expect(settingParam("mcPrecision", checkSetting("mcPrecision", 0.7000000000000001))).toBe("0.7");
    expect(settingParam("mcPrecision", 0.7000000000000001)).toBe("0.7");
  });

  it.each(NAMES)("%s: leaves its default out of the link, and reads an absent key as the default", (name) => {
    expect(settingParam(name, row(name).default)).toBe("");
    expect(readSettingParam(name, undefined)).toBe(row(name).default);
  });

  it.each(NAMES)("%s: refuses what is outside its range by its label, key and allowed values", (name) => {
    const s = row(name);
    const outside =
      s.kind === "choice"
        ? [String(Math.max(...s.choices) + 1), "abc"]
        : [String(s.max + 1), `${s.min}e0`, "-1", "", " 1", "0x1", "Infinity"];
    for (const raw of outside) {
      expect(() => parseSetting(name, raw), raw).toThrow(RangeError);
      expect(() => parseSetting(name, raw), raw).toThrow(`${s.label} `);
      expect(() => parseSetting(name, raw), raw).toThrow(settingAllowed(name));
      expect(() => readSettingParam(name, raw), raw).toThrow(LinkError);
      expect(() => readSettingParam(name, raw), raw).toThrow(`${s.linkKey}=`);
    }
    if (s.kind === "range" && s.decimals < 6) {
      const finer = (s.min + 10 ** -(s.decimals + 1)).toFixed(s.decimals + 1);
      expect(() => parseSetting(name, finer), finer).toThrow(settingAllowed(name));
    }
  });

  it("gives each setting its own link key and each CLI flag once", () => {
    const keys = NAMES.map((n) => row(n).linkKey);
    expect(new Set(keys).size).toBe(keys.length);
    const flags = NAMES.flatMap((n) => row(n).cliFlag ?? []);
    expect(new Set(flags).size).toBe(flags.length);
  });
});
