/**
 * The fuzz suite: 11,000 seeded, deterministic cases of hostile input through the same entry
 * points a person's input takes: share links (mutations of real links, both formats), scenario
 * files (random JSON around the schema, read from disk as the CLI reads them) and parameter-list
 * pastes. Each case must be refused with the named error of its entry point, or accepted with
 * finite results; nothing else may be thrown, and every case's cost is bounded by construction
 * (see generators.ts). The counts are printed.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InputError, loadScenario } from "../../cli/simCommand.ts";
import { LinkError } from "../../link/linkError.ts";
import { decodeScenarioLink, encodeScenarioHash } from "../../link/scenarioLink.ts";
import { runScenario } from "../../sim/engine.ts";
import { PRESETS } from "../../sim/presets.ts";
import { Rng } from "../../sim/rng.ts";
import { derived, parseScenario, type Scenario } from "../../sim/scenario/index.ts";
import type { PolicyMetrics } from "../../sim/types.ts";
import { ModelListError, parseModelList } from "../../step/modelList.ts";
import { DEFAULT_STEP_CONFIG } from "../../step/presetCatalog.ts";
import { runStep } from "../../step/stepTimeline.ts";
import { Draw, FUZZ_MAX_FAILURES, linkFrom, pasteText, scenarioObject, scenarioText } from "./generators.ts";

const LINKS = 4000;
const FILES = 4000;
const PASTES = 3000;

interface Tally {
  cases: number;
  accepted: number;
  refused: number;
}

function finite(m: PolicyMetrics | Record<string, number>): boolean {
  return Object.values(m).every((v) =>
    ArrayBuffer.isView(v)
      ? Array.from(v as Float64Array).every(Number.isFinite)
      : v !== null && typeof v === "object"
        ? finite(v as Record<string, number>) // the badput shares
        : Number.isFinite(v as number),
  );
}

/** An accepted scenario must run to finite metrics. */
function expectRuns(s: Scenario, what: string): void {
  expect(derived(s).expectedFailures, what).toBeLessThanOrEqual(FUZZ_MAX_FAILURES * 1.5);
  const run = runScenario(s);
  // Every strategy the scenario selects (a preset may leave synchronous training out).
  for (const key of s.policies) {
    const m = run[key];
    expect(m !== undefined && finite(m), `${what}: ${key}`).toBe(true);
  }
}

/** Runs one case: accepted (checked by `accept`) or refused with `named`; anything else fails the suite. */
function fuzzCase<T>(
  t: Tally,
  what: string,
  attempt: () => T,
  named: new (...a: never[]) => Error,
  accept: (v: T) => void,
) {
  t.cases++;
  let value: T;
  try {
    value = attempt();
  } catch (e) {
    if (!(e instanceof named)) throw new Error(`${what}: threw ${String(e)}`);
    expect(e.message.length, what).toBeGreaterThan(10);
    t.refused++;
    return;
  }
  t.accepted++;
  accept(value);
}

const report = (name: string, t: Tally) =>
  console.log(
    `fuzz ${name}: ${t.cases} cases, ${t.accepted} accepted with finite results, ${t.refused} refused by name`,
  );

describe("fuzz: hostile input is refused by name or gives finite results", { timeout: 300_000 }, () => {
  it(`${LINKS} share links: mutations of real links (format 1 as recorded, format 2 from presets and generated scenarios)`, () => {
    const recorded = JSON.parse(
      readFileSync(new URL("../../sim/compat/v1-recorded.json", import.meta.url), "utf8"),
    ) as { cases: { link: string }[] };
    const d = new Draw(new Rng(1201));
    const generated: string[] = [];
    while (generated.length < 40) {
      try {
        generated.push(encodeScenarioHash(parseScenario(scenarioObject(d))));
      } catch {
        // a refused scenario has no link
      }
    }
    const real = [
      ...recorded.cases.map((c) => c.link),
      ...PRESETS.map((p) => encodeScenarioHash(parseScenario(p.scenario))),
      ...generated,
    ];
    const t: Tally = { cases: 0, accepted: 0, refused: 0 };
    for (let i = 0; i < LINKS; i++) {
      const link = linkFrom(d, d.pick(real));
      fuzzCase(
        t,
        `link ${JSON.stringify(link)}`,
        () => decodeScenarioLink(link),
        LinkError,
        (s) => {
          if (s) expectRuns(s, link);
        },
      );
    }
    report("links", t);
    expect(t.cases).toBe(LINKS);
    expect(t.accepted).toBeGreaterThan(LINKS / 10);
    expect(t.refused).toBeGreaterThan(LINKS / 10);
  });

  it(`${FILES} scenario files: random JSON around the schema, read from disk as the CLI reads it`, () => {
    const dir = mkdtempSync(join(tmpdir(), "fuzz-scenarios-"));
    const d = new Draw(new Rng(1202));
    const t: Tally = { cases: 0, accepted: 0, refused: 0 };
    for (let i = 0; i < FILES; i++) {
      const text = scenarioText(d);
      const path = join(dir, `${i % 50}.json`);
      writeFileSync(path, text);
      fuzzCase(
        t,
        `scenario file ${JSON.stringify(text)}`,
        () => loadScenario(path),
        InputError,
        (s) => expectRuns(s, text),
      );
    }
    report("scenario files", t);
    expect(t.cases).toBe(FILES);
    expect(t.accepted).toBeGreaterThan(FILES / 10);
    expect(t.refused).toBeGreaterThan(FILES / 10);
  });

  it(`${PASTES} parameter-list pastes: lists in PyTorch's layouts, mutated, with odd names, shapes and dtypes`, () => {
    const d = new Draw(new Rng(1203));
    const t: Tally = { cases: 0, accepted: 0, refused: 0 };
    for (let i = 0; i < PASTES; i++) {
      const text = pasteText(d);
      fuzzCase(
        t,
        `paste ${JSON.stringify(text)}`,
        () => parseModelList(text),
        ModelListError,
        (params) => {
          const { metrics } = runStep(params, DEFAULT_STEP_CONFIG);
          expect(Object.values(metrics).every(Number.isFinite), text).toBe(true);
        },
      );
    }
    report("pastes", t);
    expect(t.cases).toBe(PASTES);
    expect(t.accepted).toBeGreaterThan(PASTES / 10);
    expect(t.refused).toBeGreaterThan(PASTES / 10);
  });
});
