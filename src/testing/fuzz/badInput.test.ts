/**
 * A fuzz suite: bad input never changes what is shown. Seeded, deterministic cases
 * through the entry points a person's input takes, each checked against what a person relies on:
 * - typed knob values (every number knob and Job MTBF, each value typed key by key and committed
 *   once, as NumberField commits): a refusal keeps the scenario and the link; an accepted value
 *   runs to finite numbers with ETTR in [0, 1];
 * - the paste box: a refused paste keeps the model, its step, its sweep and what the link is
 *   written from;
 * - a key given twice, at any depth of a scenario file: refused by name;
 * - every address key (hide= and sw= included) with tampered values: each read ends in the
 *   defaults or the link's values, with a message for what was refused, and no sweep past the
 *   Monte Carlo budget starts without a yes;
 * - control characters in every field the CLI echoes (name, keys, values, cause names, paths,
 *   arguments): nothing raw reaches the terminal, and --json never prints an ETTR above 1.
 * The counts are printed.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hasRawControl } from "../../cli/echo.ts";
import { simCommand } from "../../cli/simCommand.ts";
import { readHash } from "../../link/hashParams.ts";
import { encodeScenarioHash } from "../../link/scenarioLink.ts";
import { sweepParam } from "../../link/sweepLink.ts";
import { runScenario } from "../../sim/engine.ts";
import { MONTE_CARLO_BUDGET_FAILURES } from "../../sim/monteCarlo/budget.ts";
import { Rng } from "../../sim/rng.ts";
import {
  derived,
  FIELD_SPECS,
  type FieldSpec,
  GROUPS,
  parseScenario,
  type ScenarioGroup,
} from "../../sim/scenario/index.ts";
import { ADDRESS_KEYS, composeAddress, readAddress } from "../../state/address.ts";
import { explorerStore, sweepCost } from "../../state/explorerStore.ts";
import { startState } from "../../state/startState.ts";
import type { StepWorker } from "../../state/stepClient.ts";
import { createStepStore } from "../../state/stepStore.ts";
import { appStore } from "../../state/store.ts";
import { mtbfProblem } from "../../ui/cluster/mtbf.ts";
import { PendingEdits, withField } from "../../ui/cluster/pendingEdits.ts";
import { boundsProblem } from "../../ui/form/NumberField.tsx";
import { stepApi } from "../../worker/stepApi.ts";
import { Draw, FUZZ_MAX_FAILURES, mutateText, pasteText, scenarioObject } from "./generators.ts";

// The page's parts, registered as main.tsx registers them.
startState();

const KNOB_CASES = 600;
const PASTES = 150;
const DUPLICATES = 400;
const ADDRESSES = 600;
const ECHOES = 300;

/** What a person types into a number field, the awkward ones first. */
const TYPED = [
  "1e308",
  "1e-320",
  "1e-310",
  "-5",
  "0",
  "00.5",
  "1e999",
  "-0",
  ".5",
  "5.",
  "1e",
  "",
  " 7 ",
  "0x10",
  "Infinity",
  "NaN",
  "12,288",
];

function typedNumber(d: Draw): string {
  if (d.chance(0.5)) return d.pick(TYPED);
  const digits = Array.from({ length: d.int(1, 6) }, () => d.pick("0123456789".split(""))).join("");
  const exp = d.chance(0.3) ? `e${d.pick(["", "-", "+"])}${d.int(0, 330)}` : "";
  return `${d.chance(0.2) ? "-" : ""}${digits}${d.chance(0.3) ? `.${d.int(0, 999)}` : ""}${exp}`;
}

const NUMBER_KNOBS = GROUPS.flatMap((g) =>
  Object.entries(FIELD_SPECS[g] as Record<string, FieldSpec>)
    .filter(([, spec]) => spec.kind === "number" || spec.kind === "int")
    .map(([field, spec]) => ({ group: g as ScenarioGroup, field, spec })),
);

function expectSane(what: string): void {
  const s = appStore.getState().scenario;
  const run = runScenario(s);
  for (const m of [run.synchronous, run.ftHsdp]) {
    for (const v of [m!.ettr, m!.usefulSeconds, m!.stallSeconds, m!.lostWorkSeconds])
      expect(Number.isFinite(v), what).toBe(true);
    // The page shows ETTR to 0.1 %: the engine's float excess (1 + 2e-16, kept for version-1
    // links' recorded bits) never shows above 100.0 %.
    expect(Number((100 * m!.ettr).toFixed(1)), what).toBeLessThanOrEqual(100);
    expect(m!.ettr, what).toBeGreaterThanOrEqual(0);
  }
  for (const v of Object.values(run.closedForm.fixed)) expect(Number.isFinite(v), what).toBe(true);
}

const fuzzDir = mkdtempSync(join(tmpdir(), "fuzz-badinput-"));

describe("fuzz: bad input never changes what is shown", { timeout: 300_000 }, () => {
  it(`${KNOB_CASES} typed knob values, each typed key by key and committed once: refused keeps the scenario and link`, () => {
    const d = new Draw(new Rng(2101));
    // Small scenarios, so that every accepted value runs in a bounded time.
    const small = parseScenario({ cluster: { gpus: 512, replicas: 8 }, training: { days: 2 } });
    let refused = 0;
    let accepted = 0;
    for (let i = 0; i < KNOB_CASES; i++) {
      appStore.setState({ scenario: small });
      const pending = new PendingEdits();
      const before = appStore.getState().scenario;
      const link = composeAddress();
      const text = typedNumber(d);
      const mtbf = d.chance(0.15);
      const knob = d.pick(NUMBER_KNOBS);
      const what = `${mtbf ? "mtbf" : `${knob.group}.${knob.field}`} typed ${JSON.stringify(text)}`;
      let changes = 0;
      const stop = appStore.subscribe((s, p) => {
        if (s.scenario !== p.scenario) changes++;
      });
      // Key by key nothing is handed on (NumberField commits on a pause, Enter or blur): only
      // the whole text is, once.
      const v = text.trim() === "" ? Number.NaN : Number(text);
      let problems: readonly string[] | null;
      if (mtbf) {
        const p = mtbfProblem(v, before.cluster.gpus / before.cluster.gpusPerHost);
        problems = p
          ? [p]
          : pending.apply("mtbf", (s) =>
              withField(
                "failures",
                "perHostDay",
                86_400 / ((s.cluster.gpus / s.cluster.gpusPerHost) * v * 60),
              )(s),
            );
      } else {
        const p = boundsProblem(knob.spec.label, v, { integer: knob.spec.kind === "int" });
        problems = p
          ? [p]
          : pending.apply(`${knob.group}.${knob.field}`, withField(knob.group, knob.field, v));
      }
      stop();
      if (problems && problems.length > 0) {
        refused++;
        expect(appStore.getState().scenario, what).toBe(before);
        expect(composeAddress(), what).toBe(link);
        expect(changes, what).toBe(0);
        for (const m of problems) expect(m, what).not.toMatch(/got (NaN|Infinity)/);
        continue;
      }
      accepted++;
      expect(changes, what).toBeLessThanOrEqual(1);
      if (derived(appStore.getState().scenario).expectedFailures <= FUZZ_MAX_FAILURES) expectSane(what);
    }
    console.log(
      `fuzz typed knobs: ${KNOB_CASES} values, ${accepted} accepted, ${refused} refused keeping the scenario`,
    );
    expect(refused).toBeGreaterThan(KNOB_CASES / 10);
    expect(accepted).toBeGreaterThan(KNOB_CASES / 20);
  });

  it(`${PASTES} pastes through the paste box: a refused one keeps the model, its results and its link`, async () => {
    const d = new Draw(new Rng(2102));
    const w: StepWorker = {
      stepRun: async (req) => stepApi.stepRun(req),
      stepSweep: async (req) => stepApi.stepSweep(req),
      stepTrace: async (req) => stepApi.stepTrace(req),
    };
    const { store, start } = createStepStore(() => w);
    await start();
    const settle = async () => {
      for (let i = 0; i < 6; i++) await new Promise((r) => setTimeout(r, 0));
    };
    await settle();
    let refused = 0;
    for (let i = 0; i < PASTES; i++) {
      const before = store.getState();
      store
        .getState()
        .setPasteText(
          d.chance(0.3) ? `[{"name":"w","shape":[64],"dtype":"torch.float${d.int(0, 99)}"}]` : pasteText(d),
        );
      store.getState().applyPaste();
      await settle();
      const after = store.getState();
      if (after.source === before.source) {
        refused++;
        expect(after.problem?.error.length).toBeGreaterThan(10);
        expect(after.config).toBe(before.config);
        expect(after.model).toBe(before.model);
        expect(after.result).toBe(before.result);
        expect(after.sweep).toBe(before.sweep);
      } else {
        expect(after.problem).toBeNull();
        expect(after.result?.metrics.stepMs ?? 0).toSatisfy(Number.isFinite);
      }
    }
    console.log(`fuzz paste box: ${PASTES} pastes, ${refused} refused keeping the previous model`);
    expect(refused).toBeGreaterThan(PASTES / 10);
  });

  it(`${DUPLICATES} scenario files with a key given twice at some depth: refused by name`, async () => {
    const d = new Draw(new Rng(2103));
    for (let i = 0; i < DUPLICATES; i++) {
      const text = JSON.stringify(scenarioObject(d));
      // Give one key of one object again, right after its first occurrence.
      const keys = [...text.matchAll(/"([A-Za-z]+)":/g)];
      if (keys.length === 0) continue;
      const k = d.pick(keys);
      const at = (k.index ?? 0) + k[0].length;
      const twice = `${text.slice(0, at)}${d.pick(["1", '"x"', "null", "{}"])},${k[0]}${text.slice(at)}`;
      const path = join(fuzzDir, "twice.json");
      writeFileSync(path, twice);
      const r = await simCommand([path]);
      expect(r.code, twice).toBe(2);
      expect(r.stderr, twice).toContain(`"${k[1]}" is given twice`);
    }
  });

  it(`${ADDRESSES} addresses with every key tampered (hide= and sw= too): no sweep past the budget starts unasked`, async () => {
    const d = new Draw(new Rng(2104));
    const heavy = parseScenario({
      cluster: { gpus: 1_000_000, gpusPerHost: 1, replicas: 1000 },
      training: { days: 100 },
      failures: { perHostDay: 0.01 },
    });
    const real: Record<string, string[]> = {
      v: ["cluster", "story", "step", "lab", "train"],
      s: [encodeScenarioHash(heavy).slice(3), encodeScenarioHash(parseScenario({ seed: 3 })).slice(3)],
      w: ["100,2000", "0,1"],
      ch: ["predict", "one-failure"],
      hide: ["knobs.failures,presets", "cluster.gpus", "knobs.faalures"],
      sw: [
        sweepParam({ axis: "gpus", points: 50, seeds: 2000, range: null, run: true }),
        sweepParam({ axis: "gpus", points: 12, seeds: 30, range: { from: 2000, to: 8000 }, run: false }),
      ],
    };
    let messages = 0;
    for (let i = 0; i < ADDRESSES; i++) {
      const parts: string[] = [];
      for (const key of Object.keys(ADDRESS_KEYS)) {
        if (!d.chance(0.5)) continue;
        const value = d.pick(real[key] ?? ["x"]);
        const tampered = d.chance(0.5) ? mutateText(d, value, "abcAZ09-_.,:~%~run") : value;
        parts.push(`${key}=${tampered}`);
        if (d.chance(0.05)) parts.push(`${key}=${value}`); // given twice
      }
      const hash = `#${parts.join("&")}`;
      const error = readAddress(hash);
      if (error) {
        messages++;
        expect(error).not.toMatch(/got (NaN|Infinity)/);
      }
      // Given twice, a key is refused by name.
      for (const k of new Set(parts.map((p) => p.split("=")[0])))
        if (parts.filter((p) => p.startsWith(`${k}=`)).length > 1) expect(error, hash).toContain(`"${k}="`);
      await new Promise((r) => setTimeout(r, 0));
      const { sweep } = explorerStore.getState();
      if (sweep.status === "running") {
        expect(sweepCost().failures, hash).toBeLessThanOrEqual(MONTE_CARLO_BUDGET_FAILURES);
        explorerStore.getState().cancelSweep();
      }
      if (sweep.confirm) explorerStore.getState().answerSweep(false);
      expect(readHash(hash).size).toBeGreaterThanOrEqual(0);
    }
    console.log(
      `fuzz addresses: ${ADDRESSES} tampered addresses, ${messages} with a message naming what was refused`,
    );
    expect(messages).toBeGreaterThan(ADDRESSES / 10);
  });

  it(`${ECHOES} control characters in every field the CLI echoes: nothing raw reaches the terminal`, async () => {
    const d = new Draw(new Rng(2105));
    const controls = [
      "\u001b[2J",
      "\u001b[31m",
      "\u0000",
      "\u0007",
      "\r",
      "\u009b2J",
      "\u202e",
      "\u2028",
      "\u007f",
    ];
    const nasty = () =>
      Array.from({ length: d.int(1, 4) }, () => (d.chance(0.5) ? d.pick(controls) : "ETTR 99.9%")).join("");
    for (let i = 0; i < ECHOES; i++) {
      const where = d.int(0, 6);
      const text = nasty();
      const scenario: Record<string, unknown> = {
        cluster: { gpus: 512, replicas: 8 },
        training: { days: 1 },
      };
      if (where === 0) scenario.name = text.slice(0, 120);
      else if (where === 1) scenario.cluster = { gpus: 512, replicas: 8, [text]: 1 };
      else if (where === 2) scenario.failures = { arrivals: text };
      else if (where === 3) scenario.failures = { causes: [{ name: text, share: 1, scope: "host" }] };
      else if (where === 4) scenario[text] = 1;
      const file = join(fuzzDir, "echo.json");
      writeFileSync(file, JSON.stringify(scenario));
      const args =
        where === 5
          ? [join(fuzzDir, `missing${text}.json`)]
          : where === 6
            ? [file, `--${text}`]
            : [file, ...(d.chance(0.5) ? ["--json"] : [])];
      const r = await simCommand(args);
      const what = `${where}: ${JSON.stringify(text)}`;
      expect(hasRawControl(r.stdout), what).toBe(false);
      expect(hasRawControl(r.stderr), what).toBe(false);
      expect(r.stdout, what).not.toMatch(/NaN|Infinity/);
      if (r.code === 0 && args.includes("--json")) {
        const out = JSON.parse(r.stdout);
        for (const policy of [out.synchronous, out.ftHsdp])
          for (const q of ["mean", "p5", "p95"]) expect(policy.ettr[q], what).toBeLessThanOrEqual(1);
      }
    }
  });
});
