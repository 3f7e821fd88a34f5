import { describe, expect, it } from "vitest";
import { parseScenario } from "../scenario/index.ts";
import { scenarioWithFit } from "./applyFit.ts";
import type { FittedScenario } from "./fitScenario.ts";

const fitted: FittedScenario = {
  name: "Fitted to log.json",
  failures: {
    perHostDay: 0.0038,
    arrivals: "poisson",
    hangFraction: 0,
    causes: [{ name: "GPU", share: 1, scope: "host", hang: false, newHost: true }],
  },
};

describe("Use this fit", () => {
  it("keeps the cluster and the spare pool, sets the failures whole", () => {
    const on = parseScenario({
      cluster: { gpus: 16_384, replicas: 16 },
      failures: { perHostDay: 0.02, arrivals: "weibull", weibullShape: 0.5, hangFraction: 0.3 },
      spares: { pool: "limited", hosts: 7 },
    });
    const next = scenarioWithFit(on, fitted);
    expect(next.cluster).toEqual(on.cluster);
    expect(next.spares).toEqual(on.spares);
    expect(next.name).toBe("Fitted to log.json");
    // The log said random arrivals: the old shape does not linger as a claim.
    expect(next.failures).toMatchObject({
      perHostDay: 0.0038,
      arrivals: "poisson",
      weibullShape: 1,
      hangFraction: 0,
    });
    expect(next.failures.causes.map((c) => c.name)).toEqual(["GPU"]);
  });

  it("a fit the scenario refuses throws the scenario's own message", () => {
    const on = parseScenario({});
    expect(() =>
      scenarioWithFit(on, { ...fitted, failures: { ...fitted.failures, perHostDay: 99 } }),
    ).toThrow(/failures\.perHostDay/);
  });
});
