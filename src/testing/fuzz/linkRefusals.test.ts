/**
 * Fuzz families of refusals: a refusal names what it refused and changes nothing else.
 * - links with each key bad alone and in pairs, read after a good link: each read must say
 *   something (0 silent outcomes) and leave every part's state as the good link set it (the
 *   address composed from the stores is unchanged);
 * - `lres=` rows that break one of the lab's invariants: each refused, naming the row;
 * - the CLI given a link whose scenario it cannot see (in the query, under a key in another case,
 *   percent-encoded or misspelt): each exit 2 naming the key, never the defaults' numbers.
 * The counts are printed.
 */
import { describe, expect, it } from "vitest";
import { APP_URL, simCommand } from "../../cli/simCommand.ts";
import { busBwFactor } from "../../gpu/collectives.ts";
import { readHash } from "../../link/hashParams.ts";
import { decodeLabResults, encodeLabResults, type LinkedRow } from "../../link/labResultsLink.ts";
import { encodeScenarioParam } from "../../link/scenarioLink.ts";
import { Rng } from "../../sim/rng.ts";
import { parseScenario } from "../../sim/scenario/index.ts";
import { composeAddress, readAddress } from "../../state/address.ts";
// As the page does after its first frame: keys of views not loaded are checked on open.
import "../../state/addressChecks.ts";
import { explorerStore } from "../../state/explorerStore.ts";
import { gpuPriceStore } from "../../state/gpuPrice.ts";
import { labStore } from "../../state/labStore.ts";
import { mcStore } from "../../state/mcStore.ts";
import { startState } from "../../state/startState.ts";
import { stepStore } from "../../state/stepStore.ts";
import { appStore } from "../../state/store.ts";
import { storyBucketStore } from "../../state/storyBucket.ts";
import { trainStore } from "../../state/trainStore.ts";
import { Draw, mutateText } from "./generators.ts";

// The page's parts, registered as main.tsx registers them.
startState();

/** Values no key accepts. */
const BAD = ["x!", "-1", "1e999", "NaN", "%zz", "\u202e", "2x", "AAAA"];
const PAIRS = 300;

/** A good link that sets every part away from its defaults, as the stores write it. */
function goodLink(): string {
  appStore.setState({ tab: "cluster", scenario: parseScenario({ cluster: { replicas: 16 } }) });
  explorerStore.setState({ window: [100, 2000], logKinds: ["failure", "eviction"] });
  gpuPriceStore.setState({ price: 3.5 });
  mcStore.setState({ precision: 0.02, cap: 500, baseline: parseScenario({ seed: 9 }) });
  storyBucketStore.setState({ cap: 512 });
  stepStore().getState().setCapMb(100);
  labStore.getState().setForm({ devices: 8 });
  trainStore.setState({ mode: "cpu", config: { ...trainStore.getState().config, seed: 7 } });
  return composeAddress();
}

/** `hash` with `bad` values put in place of (or beside) its own. */
function withBad(hash: string, bad: Record<string, string>): string {
  const params = readHash(hash);
  for (const [k, v] of Object.entries(bad)) params.set(k, v);
  return `#${[...params].map(([k, v]) => `${k}=${v}`).join("&")}`;
}

describe("links with each key bad alone and in pairs", () => {
  it("every refusal says so and keeps every part as the good link set it", { timeout: 60_000 }, () => {
    const good = goodLink();
    // hide= is not here: whether an id names a control is known only to the page, which names the
    // ones that do not (App.tsx; e2e/badinput.spec.ts).
    const keys = [...readHash(good).keys(), "tr", "lfd", "tn", "sw", "lres", "ch", "fl"].filter(
      (k) => k !== "hide",
    );
    const d = new Draw(new Rng(3009));
    const cases: Record<string, string>[] = [];
    for (const k of new Set(keys)) for (const v of BAD) cases.push({ [k]: v });
    // Mutated good values: a bad one is one the read refuses (some mutations stay valid).
    for (const k of readHash(good).keys()) {
      const v = readHash(good).get(k) ?? "";
      for (let i = 0; i < 10; i++) cases.push({ [k]: mutateText(d, v, "abcAZ09-_.,:~%") });
    }
    const all = [...new Set(keys)];
    for (let i = 0; i < PAIRS; i++) {
      const a = d.pick(all);
      const b = d.pick(all.filter((k) => k !== a));
      cases.push({ [a]: d.pick(BAD), [b]: d.pick(BAD) });
    }
    let refused = 0;
    let silent = 0;
    let changed = 0;
    let accepted = 0;
    for (const bad of cases) {
      expect(readAddress(good)).toBeNull();
      const before = composeAddress();
      const hash = withBad(good, bad);
      const error = readAddress(hash);
      const after = composeAddress();
      const allBad = Object.entries(bad).every(([, v]) => BAD.includes(v));
      if (error === null) {
        // Only a mutation may be valid: then what it set is what the link says, not silence.
        if (allBad) silent++;
        else accepted++;
        continue;
      }
      refused++;
      // Keys not refused applied as the link says; every refused one kept what was on screen.
      const kept = readHash(after);
      for (const [k, v] of readHash(before)) if (!(k in bad)) expect(kept.get(k), `${hash}: ${k}`).toBe(v);
      for (const k of Object.keys(bad)) {
        if (kept.get(k) !== readHash(before).get(k) && kept.get(k) !== bad[k]) changed++;
      }
    }
    console.log(
      `fuzz link refusals: ${cases.length} links (each key bad alone, mutated, and ${PAIRS} pairs): ${refused} refused with a message, ${accepted} mutations still valid, ${silent} silent, ${changed} changed a refused key's state`,
    );
    expect(silent).toBe(0);
    expect(changed).toBe(0);
  });
});

describe("lres= invariants", () => {
  it("a row that breaks one of the lab's invariants is refused, naming the row", () => {
    const bytes = 1 << 20;
    const seconds = 0.002;
    const row = (devices: number): LinkedRow => ({
      mode: "shared",
      algorithm: "ring",
      devices,
      bytesPerDevice: bytes,
      seconds,
      algbw: bytes / seconds / 1e9,
      busbw: (bytes / seconds / 1e9) * busBwFactor("all-reduce", devices),
      efficiency: 0.5,
      verified: true,
      maxAbsError: 1e-7,
      toleranceAtWorst: 1e-6,
      timer: "wall-clock",
      reps: 3,
      submits: 3,
      trafficBytes: bytes * 2,
      on: "Software adapter",
    });
    const d = new Draw(new Rng(3012));
    const breaks: ((r: LinkedRow) => LinkedRow)[] = [
      (r) => ({ ...r, devices: d.int(0, 1) }),
      (r) => ({ ...r, efficiency: 1.5 + d.int(1, 1e6) }),
      (r) => ({ ...r, maxAbsError: r.toleranceAtWorst * (1 + d.int(1, 1000)) }),
      (r) => ({ ...r, maxAbsError: Number.NaN }),
      (r) => ({ ...r, algbw: r.algbw * (1 + d.int(1, 100) / 100) }),
      (r) => ({ ...r, busbw: r.busbw * (1 + d.int(1, 100) / 100) }),
    ];
    let refused = 0;
    let silent = 0;
    for (let i = 0; i < 300; i++) {
      const rows = Array.from({ length: d.int(1, 5) }, () => row(d.int(2, 16)));
      expect(decodeLabResults(encodeLabResults(rows))).toHaveLength(rows.length);
      const at = d.int(0, rows.length - 1);
      rows[at] = d.pick(breaks)(rows[at] ?? row(2));
      try {
        decodeLabResults(encodeLabResults(rows));
        silent++;
      } catch (e) {
        expect(String(e)).toContain(`lres=) were not used: row ${at + 1} cannot be a measurement`);
        refused++;
      }
    }
    console.log(
      `fuzz lres= invariants: 300 tables with one broken row, ${refused} refused naming it, ${silent} silent`,
    );
    expect(silent).toBe(0);
  });
});

describe("the CLI: query-string and case variants of a share link", () => {
  it("a scenario it cannot see is refused naming the key, exit 2", async () => {
    const payload = encodeScenarioParam(parseScenario({ cluster: { replicas: 16 } }));
    const variants = [
      `${APP_URL}?s=${payload}`,
      `${APP_URL}?S=${payload}#v=cluster`,
      `${APP_URL}?v=cluster&s=${payload}`,
      `${APP_URL}#S=${payload}`,
      `${APP_URL}#%73=${payload}`,
      `${APP_URL}#sx=${payload}`,
      `${APP_URL}#v=cluster&S=${payload}`,
      `${APP_URL}#v=cluster&s%3D${payload}`,
      `${APP_URL}#V=cluster&s=${payload}`,
      `${APP_URL}#s=${payload}&cluster`,
      `#S=${payload}`,
      `#%53=${payload}`,
    ];
    let silent = 0;
    for (const link of variants) {
      const r = await simCommand([link, "--seeds", "1"]);
      if (r.code === 0) silent++;
      else {
        expect(r.code, link).toBe(2);
        expect(r.stderr, link).toMatch(/bad share link: .*("[^"]*="|not key=value)/);
      }
    }
    console.log(
      `fuzz CLI link variants: ${variants.length} links, ${variants.length - silent} refused naming the key, ${silent} silent`,
    );
    expect(silent).toBe(0);
  });
});
