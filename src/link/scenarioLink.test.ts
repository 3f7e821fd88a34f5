import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LLAMA3_CAUSES } from "../sim/presets.ts";
import { DEFAULT_SCENARIO, parseScenario } from "../sim/scenario/index.ts";
import { validScenario } from "../testing/scenario.arbitrary.ts";
import { LinkError } from "./linkError.ts";
import {
  decodeScenarioLink,
  decodeScenarioParam,
  encodeLinkPayload,
  encodeScenarioHash,
  encodeScenarioParam,
  MAX_LINK_CHARS,
  MAX_SHARE_LINK_CHARS,
} from "./scenarioLink.ts";

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

  it("round-trip the cause mixes the knobs make: Llama 3's 18 causes, and 32 causes of 40 characters each", () => {
    const llama = parseScenario({ failures: { causes: [...LLAMA3_CAUSES] } });
    expect(decodeScenarioLink(encodeScenarioHash(llama))).toEqual(llama);
    // The validator's limits (32 causes, 40-character names) stay inside a share link, even in the
    // costliest case: names of random BMP text (3 UTF-8 bytes a character, incompressible), every
    // other field set to a long number.
    let x = 12_345;
    const bmp = () => {
      x = (Math.imul(x, 1_103_515_245) + 12_345) >>> 0;
      return String.fromCharCode(0x800 + (x % (0xd800 - 0x800)));
    };
    const causes = Array.from({ length: 32 }, (_, i) => ({
      name: Array.from({ length: 40 }, bmp).join(""),
      share: 123_456.789_012_34 + i / 7,
      scope: (["host", "rack", "job"] as const)[i % 3]!,
      hang: i % 2 === 0,
      newHost: i % 3 === 0,
    }));
    const full = parseScenario({
      seed: 4_294_967_295,
      cluster: { hostsPerRack: 4, placement: "striped" },
      failures: { causes, arrivals: "weibull", weibullShape: 0.713_251 },
      ft: {
        hangTimeoutSeconds: 61.234_567,
        checkpointMinutes: 33.312_345,
        checkpointWriteSeconds: 12.345_678,
      },
      spares: { pool: "limited", hosts: 12_345, repairHours: 47.123_456 },
    });
    const hash = encodeScenarioHash(full);
    expect(hash.length).toBeGreaterThan(4096); // past the old limit: a link the page made and then refused
    expect(hash.length).toBeLessThan(MAX_LINK_CHARS);
    expect(decodeScenarioLink(hash)).toEqual(full);
    const page = `http://localhost:4173/#v=cluster&${hash.slice(1)}&w=0.0,86400.0&sw=gpus,50,2000,1:2,run~00000000`;
    expect(decodeScenarioLink(page)).toEqual(full);
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
    rejects("#s=2.!!!notbase64", /could not be decoded/);
    rejects("#s=2.AAAAAAAA", /integrity check/);
  });

  it("are written in format 2, whose check fails for a changed character", () => {
    const param = encodeScenarioParam(parseScenario({ seed: 785482256 }));
    expect(param.startsWith("2.")).toBe(true);
    // In format 1 a changed character went unnoticed: seed 785482256 silently became 705482256.
    const i = param.length - 8;
    const changed = `${param.slice(0, i)}${param[i] === "A" ? "B" : "A"}${param.slice(i + 1)}`;
    expect(() => decodeScenarioParam(changed)).toThrow(/integrity check/);
  });

  it("reject an unknown format tag", () => {
    rejects("#s=9.abc", /format tag is "9"/);
    rejects("#s=garbage", /format tag/);
  });

  it("reject an oversized link before decoding it", () => {
    rejects(`#s=1.${"A".repeat(MAX_LINK_CHARS)}`, /at most 6144/);
    expect(() => decodeScenarioParam(`2.${"A".repeat(MAX_LINK_CHARS)}`)).toThrow(/at most 6144/);
    rejects(`#s=2.A&x=${"A".repeat(MAX_SHARE_LINK_CHARS)}`, /share links are at most 10240/);
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

/** mulberry32: a small seeded generator, so the corruptions are the same on every run. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

describe("format-2 links refuse corruption", () => {
  it("refuses 10,000 one-character and one-bit changes of real links, every one", () => {
    const links = fc
      .sample(validScenario, { numRuns: 200, seed: 9 })
      .map(encodeScenarioParam)
      .concat(encodeScenarioParam(DEFAULT_SCENARIO));
    const next = generator(20_261_201);
    const pick = (n: number) => Math.floor(next() * n);
    let refused = 0;
    let tried = 0;
    for (; tried < 10_000; tried++) {
      const link = links[pick(links.length)]!;
      const at = pick(link.length);
      const was = link[at]!;
      let now: string;
      if (tried % 2 === 0) {
        // One character replaced by another a link can hold.
        now = BASE64URL[pick(BASE64URL.length)]!;
        if (now === was) now = BASE64URL[(BASE64URL.indexOf(now) + 1) % BASE64URL.length]!;
      } else {
        // One bit of one character flipped.
        now = String.fromCharCode(was.charCodeAt(0) ^ (1 << pick(7)));
      }
      const corrupted = `${link.slice(0, at)}${now}${link.slice(at + 1)}`;
      try {
        decodeScenarioParam(corrupted);
      } catch (e) {
        if (e instanceof LinkError) refused++;
      }
    }
    console.log(`format-2 corruptions refused: ${refused} of ${tried}`);
    expect(refused).toBe(tried);
  });
});

describe("stored format-1 links", () => {
  const recorded = JSON.parse(
    readFileSync(new URL("../sim/compat/v1-recorded.json", import.meta.url), "utf8"),
  ) as { cases: { label: string; link: string; scenario: Record<string, unknown> }[] };

  it("decode to the scenarios they decoded to before format 2, and keep them in format 2", () => {
    expect(recorded.cases.length).toBeGreaterThanOrEqual(48);
    for (const c of recorded.cases) {
      const s = decodeScenarioLink(c.link) ?? DEFAULT_SCENARIO;
      expect(s, c.label).toMatchObject(c.scenario);
      expect(decodeScenarioLink(encodeScenarioHash(s)), c.label).toEqual(s);
    }
  });
});
