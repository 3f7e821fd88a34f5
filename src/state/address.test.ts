/**
 * The address as the app's state: every key of every registered part round-trips, and a bad
 * value of any key is reported, naming it, while that part falls back to its defaults.
 */
import { describe, expect, it } from "vitest";
import { readHash } from "../link/hashParams.ts";
import { encodeLinkPayload, encodeScenarioHash } from "../link/scenarioLink.ts";
import { DEFAULT_SCENARIO, parseScenario } from "../sim/scenario.ts";
import { addressStore, composeAddress, readAddress, registeredAddressKeys } from "./address.ts";
import { explorerStore } from "./explorerStore.ts";
import { appStore } from "./store.ts";

/** Every store's address-carried state, for comparing before and after a round trip. */
function snapshot() {
  const { tab, scenario } = appStore.getState();
  return { tab, scenario, window: explorerStore.getState().window };
}

describe("the address", () => {
  it("round-trips every key of every part", () => {
    appStore.setState({ tab: "step", scenario: parseScenario({ cluster: { replicas: 24 }, seed: 7 }) });
    explorerStore.setState({ window: [12.3, 4567.8] });
    const state = snapshot();
    const hash = composeAddress();
    expect(new Set(readHash(hash).keys())).toEqual(new Set(registeredAddressKeys()));

    expect(readAddress("")).toBeNull();
    expect(snapshot()).toEqual({ tab: "cluster", scenario: DEFAULT_SCENARIO, window: null });

    expect(readAddress(hash)).toBeNull();
    expect(snapshot()).toEqual(state);
    expect(composeAddress()).toBe(hash);
  });

  it("opens format-1 links as they always opened", () => {
    expect(readAddress("#s=1.q64FAA&v=lab")).toBeNull();
    expect(snapshot()).toEqual({ tab: "lab", scenario: DEFAULT_SCENARIO, window: null });
  });

  const opensWithError = (hash: string, message: RegExp) => {
    readAddress(encodeScenarioHash(parseScenario({ seed: 5 })));
    expect(readAddress(hash)).toMatch(message);
    expect(addressStore.getState().linkError).toMatch(message);
  };

  it("reports a bad scenario and shows the default one, keeping the rest of the link", () => {
    opensWithError("#s=1.broken!&v=step", /could not be decoded/);
    expect(snapshot().scenario).toEqual(DEFAULT_SCENARIO);
    expect(snapshot().tab).toBe("step");
    opensWithError(`#s=${encodeLinkPayload({ cluster: { replicas: 7 } })}`, /cluster\.replicas/);
    opensWithError("#s=9.abc", /format tag is "9"/);
  });

  it("reports a bad view, a bad window, an unknown key and an oversized address", () => {
    opensWithError("#v=stepp", /view "stepp"; the views are cluster, step, lab/);
    expect(snapshot().tab).toBe("cluster");
    opensWithError("#w=9,3", /w=9,3/);
    expect(snapshot().window).toBeNull();
    opensWithError("#v=lab&zz=1", /"zz="/);
    expect(snapshot().tab).toBe("lab");
    opensWithError(`#s=${"A".repeat(9000)}`, /at most 8192/);
    expect(snapshot().scenario).toEqual(DEFAULT_SCENARIO);
  });
});
