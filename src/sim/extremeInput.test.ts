/**
 * Accepted input at the edges of the ranges gives finite numbers and an ETTR of
 * at most 1; refused input is named without "got NaN" or "got Infinity".
 */
import { describe, expect, it } from "vitest";
import { simCommand } from "../cli/simCommand.ts";
import { encodeScenarioHash } from "../link/scenarioLink.ts";
import { closedForms } from "./closedForms/closedForms.ts";
import { runScenario } from "./engine.ts";
import { parseScenario, ScenarioError } from "./scenario/index.ts";

describe("extreme accepted input", () => {
  it("a rate of 1e-310 per host-day (1/λ overflows) gives every closed form as a number: 1", () => {
    for (const arrivals of ["poisson", "fixed", "weibull"] as const) {
      const s = parseScenario({ failures: { perHostDay: 1e-310, arrivals } });
      const cf = closedForms(s);
      expect(cf.fixed).toEqual({ synchronous: 1, ftHsdp: 1 });
      const run = runScenario(s);
      expect(run.synchronous!.ettr).toBe(1);
      expect(run.ftHsdp!.ettr).toBe(1);
    }
  });

  it("the CLI prints no NaN for it, in the table or in --json", async () => {
    const hash = encodeScenarioHash(parseScenario({ failures: { perHostDay: 1e-310, arrivals: "fixed" } }));
    const table = await simCommand([hash]);
    expect(table.code).toBe(0);
    expect(table.stdout).not.toMatch(/NaN|Infinity/);
    const json = await simCommand([hash, "--json"]);
    expect(JSON.parse(json.stdout).closedForm.fixed).toEqual({ synchronous: 1, ftHsdp: 1 });
  });

  it("ETTR is never printed above 1: a 0.001-day run with 3,600 s steps, with and without delays", async () => {
    const zero = { failStopSeconds: 0, hangSeconds: 0 };
    for (const extra of [
      {},
      { detection: zero, sync: { restartSeconds: 0 }, ft: { replicaRestartSeconds: 0, rejoinSeconds: 0 } },
    ]) {
      const hash = encodeScenarioHash(
        parseScenario({ training: { days: 0.001, stepSeconds: 3600 }, ...extra }),
      );
      for (const seeds of ["1", "40"]) {
        const out = JSON.parse((await simCommand([hash, "--json", "--seeds", seeds])).stdout);
        for (const policy of [out.synchronous, out.ftHsdp]) {
          expect(policy.ettr.mean).toBeLessThanOrEqual(1);
          expect(policy.ettr.p5).toBeLessThanOrEqual(1);
          expect(policy.ettr.p95).toBeLessThanOrEqual(1);
        }
      }
    }
  });

  it("a number too large for JSON (1e999) is refused without 'got Infinity'", () => {
    try {
      parseScenario(JSON.parse('{"failures":{"perHostDay":1e999}}'));
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ScenarioError);
      expect((e as Error).message).not.toMatch(/NaN|Infinity/);
      expect((e as Error).message).toMatch(
        /failures\.perHostDay: got a number too large to represent; must be a number in \[0, 10\]/,
      );
    }
  });
});

describe("cause names", () => {
  it("a name past 40 is refused by name, quoted without splitting an emoji", () => {
    const name = `${"a".repeat(39)}😀b`;
    try {
      parseScenario({ failures: { causes: [{ name, share: 1, scope: "host" }] } });
      expect.unreachable();
    } catch (e) {
      const message = (e as Error).message;
      expect(message).toMatch(
        /failures\.causes\[0\]\.name: got "a{39}😀…" \(41 characters\); must be a string of 1–40 characters/,
      );
      expect(message).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    }
  });
});
