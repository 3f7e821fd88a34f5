import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_SCENARIO,
  type FieldSpec,
  GROUPS,
  parseScenario,
  type Scenario,
} from "../../sim/scenario/index.ts";
import { V3_POLICIES } from "../../testing/scenario.arbitrary.ts";
import { knobLayout, specOf } from "./knobLayout.ts";

/** Every field of a scenario, as "group.field", read from the defaults (the shape the engine runs). */
const FIELDS = GROUPS.flatMap((g) => Object.keys(DEFAULT_SCENARIO[g]).map((f) => `${g}.${f}`));

const enabled = (s: Scenario, key: string) => {
  const [g, f] = key.split(".") as [(typeof GROUPS)[number], string];
  const rule = specOf(g, f).knob.enabledWhen;
  return rule ? rule(s) : true;
};

describe("the knobs panel's layout (built from the field specs)", () => {
  it("has a knob for every scenario field, exactly once", () => {
    const knobs = knobLayout().flatMap((s) => s.fields.map(([g, f]) => `${g}.${f}`));
    expect(FIELDS.length).toBeGreaterThan(25);
    expect([...knobs].sort()).toEqual([...FIELDS].sort());
  });

  it("shows the sections in the panel's order, each field in its section in the tables' order", () => {
    const layout = knobLayout();
    expect(layout.map((s) => s.id)).toEqual([
      "cluster",
      "failures",
      "causes",
      "detection",
      "sync",
      "ft",
      "spares",
      "slow",
      "diloco",
      "run",
    ]);
    expect(layout.find((s) => s.id === "failures")?.fields.map(([, f]) => f)).toEqual([
      "perHostDay",
      "arrivals",
      "weibullShape",
      "hangFraction",
      "badHosts",
      "log",
    ]);
    expect(layout.find((s) => s.id === "causes")?.fields).toEqual([["failures", "causes"]]);
    expect(layout.find((s) => s.id === "run")?.fields).toEqual([
      ["training", "days"],
      ["training", "stepSeconds"],
    ]);
  });

  it("labels every value of every menu", () => {
    for (const key of FIELDS) {
      const [g, f] = key.split(".") as [(typeof GROUPS)[number], string];
      const spec: FieldSpec = specOf(g, f);
      if (spec.kind !== "enum") continue;
      expect(Object.keys(spec.knob.options ?? {}).sort(), key).toEqual([...spec.values].sort());
    }
  });

  it("enables the Weibull shape only with Weibull arrivals, and the hang fraction only without a cause mix", () => {
    const d = DEFAULT_SCENARIO;
    expect(enabled(d, "failures.weibullShape")).toBe(false);
    expect(enabled(parseScenario({ failures: { arrivals: "weibull" } }), "failures.weibullShape")).toBe(true);
    expect(enabled(d, "failures.hangFraction")).toBe(true);
    const mix = parseScenario({ failures: { causes: [{ name: "host", share: 1, scope: "host" }] } });
    expect(enabled(mix, "failures.hangFraction")).toBe(false);
    // A §4 policy's knobs are on only while the scenario selects that policy.
    const four = parseScenario({ policies: [...V3_POLICIES] });
    const perPolicy = FIELDS.filter((k) => k.startsWith("inMemory.") || k.startsWith("hotSpare."));
    expect(perPolicy.length).toBe(7);
    expect(perPolicy.filter((k) => enabled(d, k))).toEqual([]);
    expect(perPolicy.filter((k) => !enabled(four, k))).toEqual([]);
    expect(enabled(parseScenario({ policies: ["synchronous"] }), "ft.stepOverheadPercent")).toBe(false);
    // §5: the log's summary only with log arrivals, lemon hosts only without; the repair law
    // only with a limited pool, and σ only with lognormal repairs.
    const replay = { ...d, failures: { ...d.failures, arrivals: "log" as const } };
    expect([enabled(d, "failures.log"), enabled(replay, "failures.log")]).toEqual([false, true]);
    expect([enabled(d, "failures.badHosts"), enabled(replay, "failures.badHosts")]).toEqual([true, false]);
    const limited = parseScenario({ spares: { pool: "limited" } });
    const lognormal = parseScenario({ spares: { pool: "limited", repairLaw: "lognormal" } });
    expect([enabled(d, "spares.repairLaw"), enabled(limited, "spares.repairLaw")]).toEqual([false, true]);
    expect([enabled(limited, "spares.repairSigma"), enabled(lognormal, "spares.repairSigma")]).toEqual([
      false,
      true,
    ]);
    const v4 = ["failures.log", "spares.repairLaw", "spares.repairSigma"];
    // §6: a slow episode's shape and eviction matter only once there are episodes.
    const slowShape = FIELDS.filter((k) => k.startsWith("slow.") && k !== "slow.perHostDay");
    expect(slowShape.length).toBe(4);
    expect(slowShape.filter((k) => enabled(d, k))).toEqual([]);
    const slow = parseScenario({ slow: { perHostDay: 0.1 } });
    expect(slowShape.filter((k) => !enabled(slow, k))).toEqual([]);
    // §7: DiLoCo's knobs are on only while the scenario runs DiLoCo.
    const dilocoKnobs = FIELDS.filter((k) => k.startsWith("diloco."));
    expect(dilocoKnobs.length).toBe(4);
    expect(dilocoKnobs.filter((k) => enabled(d, k))).toEqual([]);
    const withDiloco = { ...d, policies: [...d.policies, "diloco" as Scenario["policies"][number]] };
    expect(dilocoKnobs.filter((k) => !enabled(withDiloco, k))).toEqual([]);
    // Every other knob is always on.
    const rest = FIELDS.filter(
      (k) =>
        k !== "failures.weibullShape" &&
        k !== "failures.hangFraction" &&
        !perPolicy.includes(k) &&
        !v4.includes(k) &&
        !slowShape.includes(k) &&
        !dilocoKnobs.includes(k),
    );
    expect(rest.filter((k) => !enabled(d, k) || !enabled(mix, k))).toEqual([]);
  });
});

describe("the README", () => {
  it("has a row in the scenario table for every scenario field", () => {
    const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8");
    const missing = FIELDS.filter((k) => !readme.includes(`| \`${k}\` |`));
    expect(missing).toEqual([]);
  });
});
