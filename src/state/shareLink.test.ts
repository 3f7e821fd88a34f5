import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validScenario } from "../sim/scenario.arbitrary.ts";
import { DEFAULT_SCENARIO, parseScenario } from "../sim/scenario.ts";
import {
  decodeScenarioLink,
  encodeLinkPayload,
  encodeScenarioHash,
  LinkError,
  MAX_LINK_CHARS,
} from "./shareLink.ts";

/** A link around any JSON value, the way a tampering or buggy client would build one. */
const linkOf = (value: unknown) => `#s=${encodeLinkPayload(value)}`;

describe("share links", () => {
  it("round-trip any valid scenario, from a hash or a full URL", () => {
    fc.assert(
      fc.property(validScenario, (s) => {
        const hash = encodeScenarioHash(s);
        expect(decodeScenarioLink(hash)).toEqual(s);
        expect(decodeScenarioLink(`http://localhost:4173/${hash}&v=step`)).toEqual(s);
      }),
    );
  });

  it("carry only what differs from the defaults, so they stay short", () => {
    const s = parseScenario({ cluster: { replicas: 16 }, failures: { arrivals: "fixed" } });
    const hash = encodeScenarioHash(s);
    expect(hash.length).toBeLessThan(80);
    expect(encodeScenarioHash(DEFAULT_SCENARIO).length).toBeLessThan(20);
  });

  it("a link without a scenario opens the defaults", () => {
    expect(decodeScenarioLink("")).toBeNull();
    expect(decodeScenarioLink("http://localhost:4173/#v=lab")).toBeNull();
  });

  const rejects = (link: string, pattern: RegExp) => {
    expect(() => decodeScenarioLink(link)).toThrow(LinkError);
    expect(() => decodeScenarioLink(link)).toThrow(pattern);
  };

  it("reject a truncated link", () => {
    const hash = encodeScenarioHash(
      parseScenario({ cluster: { replicas: 16 }, seed: 99, name: "a longer name to compress" }),
    );
    rejects(hash.slice(0, hash.length - 6), /could not be decoded|not valid JSON/);
  });

  it("reject a tampered link", () => {
    rejects("#s=1.!!!notbase64", /could not be decoded/);
    rejects("#s=1.AAAA", /could not be decoded|not valid JSON/);
  });

  it("reject an unknown format tag", () => {
    rejects("#s=9.abc", /format tag is "9"/);
    rejects("#s=garbage", /format tag/);
  });

  it("reject an oversized link before decoding it", () => {
    rejects(`#s=1.${"A".repeat(MAX_LINK_CHARS)}`, /at most 4096/);
  });

  it("reject a small link that inflates to a huge payload", () => {
    const bomb = linkOf({ name: " ".repeat(200_000) });
    expect(bomb.length).toBeLessThan(MAX_LINK_CHARS);
    rejects(bomb, /expands past|could not be decoded/);
  });

  it("reject a link whose scenario is invalid, naming the field", () => {
    rejects(linkOf({ cluster: { replicas: 10 } }), /cluster\.replicas/);
    rejects(linkOf({ cluster: { gpus: 1e12 } }), /cluster\.gpus.*1,000,000/);
    rejects(linkOf({ sync: { bogus: 1 } }), /sync\.bogus: unknown field/);
    rejects(linkOf("{not a scenario"), /must be a JSON object/);
  });
});
