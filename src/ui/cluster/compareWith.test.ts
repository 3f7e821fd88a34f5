/**
 * The comparison panel's numbers: its differences are those of the two scenarios run apart, seed
 * by seed, and the difference and error it writes are the ones each card's band writes for the
 * same pair (rendered, as a person reads them); each badput share's difference and error too.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { encodeScenarioHash } from "../../link/scenarioLink.ts";
import { runScenario } from "../../sim/engine.ts";
import { McStream, meanAndHalf } from "../../sim/monteCarlo/mcStream.ts";
import { seedOf } from "../../sim/monteCarlo/mcSummary.ts";
import { runChunk } from "../../sim/monteCarlo/monteCarlo.ts";
import { closedFormsOf } from "../../sim/policies/policyForms.ts";
import { parseScenario, type Scenario } from "../../sim/scenario/index.ts";
import { mcStore } from "../../state/mcStore.ts";
import { appStore } from "../../state/store.ts";
import { shareText } from "./badputPairs.ts";
import { bandPair } from "./bandPair.ts";
import { CompareWith, scenarioFromFile, scenarioFromLink } from "./CompareWith.tsx";
import { McBand } from "./McBand.tsx";

const A = parseScenario({
  cluster: { gpus: 4096, replicas: 8 },
  training: { days: 3 },
  seed: 11,
  policies: ["synchronous", "ftHsdp"],
});
const B = parseScenario({ ...A, version: undefined, sync: { ...A.sync, restartSeconds: 900 } });

/** The page's streaming Monte Carlo of s, to its cap, chunk by chunk in order. */
function streamOf(s: Scenario, cap: number): McStream {
  const stream = new McStream(s, { precision: 1e-9, cap });
  for (let job = stream.next(); job; job = stream.next()) {
    stream.put(job.index, runChunk(s, job.chunk));
    if (stream.stop) break;
  }
  return stream;
}
const snapshotOf = (s: Scenario, cap: number) => streamOf(s, cap).snapshot();

const text = (html: string, testId: string): string => {
  const m = new RegExp(`data-testid="${testId}"[^>]*>(.*?)</(td|dd)>`).exec(html);
  return (m?.[1] ?? "").replace(/<[^>]+>/g, "");
};

describe("Compare with…", () => {
  const N = 30;
  const snapA = snapshotOf(A, N);
  const snapB = snapshotOf(B, N);
  const mc = {
    current: { scenario: B, snapshot: snapB },
    base: { scenario: A, snapshot: snapA },
    baseline: A,
  };

  it("its difference is that of the two scenarios run apart, paired seed by seed", () => {
    for (const p of B.policies) {
      const runs = Array.from({ length: N }, (_, i) => [
        runScenario(B, { seed: seedOf(B, i) })[p]!.ettr,
        runScenario(A, { seed: seedOf(A, i) })[p]!.ettr,
      ]);
      const apart = meanAndHalf(Float64Array.from(runs, ([b, a]) => b! - a!));
      const { e, b, d } = bandPair(p, B, mc);
      expect(d?.kind).toBe("paired");
      expect(d?.mean).toBeCloseTo(apart.mean, 12);
      expect(d?.half).toBeCloseTo(apart.half, 12);
      expect(e?.mean).toBeCloseTo(meanAndHalf(Float64Array.from(runs, (r) => r[0]!)).mean, 12);
      expect(b?.mean).toBeCloseTo(meanAndHalf(Float64Array.from(runs, (r) => r[1]!)).mean, 12);
      // A restart that takes longer costs the synchronous strategy: the sign is the change's.
      if (p === "synchronous") expect(d!.mean).toBeLessThan(0);
    }
  });

  it("writes the same difference and error as the cards' bands, and every differing knob", () => {
    appStore.setState({ scenario: B });
    mcStore.setState(mc);
    // A server render reads a store's initial state (useSyncExternalStore's server snapshot): show it this one.
    vi.spyOn(appStore, "getInitialState").mockImplementation(() => appStore.getState());
    vi.spyOn(mcStore, "getInitialState").mockImplementation(() => mcStore.getState());
    const panel = renderToStaticMarkup(createElement(CompareWith));
    for (const [i, p] of B.policies.entries()) {
      const card = renderToStaticMarkup(
        createElement("dl", null, createElement(McBand, { policy: p, first: i === 0 })),
      );
      expect(text(panel, `compare-delta-${p}`)).toBe(text(card, `ettr-delta-${p}`));
      expect(text(panel, `compare-delta-${p}`)).toMatch(/points \(paired by seed, 30 runs\)/);
      expect(text(panel, `compare-base-${p}`)).toBe(text(card, `ettr-base-${p}`));
      expect(text(panel, `compare-this-${p}`)).toBe(text(card, `ettr-mc-${p}`).replace(/<[^>]+>/g, ""));
    }
    expect(panel).toContain('data-path="sync.restartSeconds"');
    expect(panel.match(/data-path=/g)).toHaveLength(1);
  });

  it("writes each badput share both ways with the difference and error of the per-seed differences", () => {
    const [sa, sb] = [streamOf(A, N), streamOf(B, N)];
    appStore.setState({ scenario: B, mc: sb.result(closedFormsOf(B)) });
    mcStore.setState({
      ...mc,
      baseResult: sa.result(closedFormsOf(A)),
      baseBadput: { scenario: A, samples: sa.badputSamples() },
      currentBadput: { scenario: B, samples: sb.badputSamples() },
    });
    vi.spyOn(appStore, "getInitialState").mockImplementation(() => appStore.getState());
    vi.spyOn(mcStore, "getInitialState").mockImplementation(() => mcStore.getState());
    const panel = renderToStaticMarkup(createElement(CompareWith));
    expect(panel).toContain('data-testid="compare-badput"');
    expect(panel).toMatch(/data-testid="compare-badput-basis"[^>]*>\(paired by seed, 30 runs\)/);
    for (const p of B.policies) {
      const runs = Array.from({ length: N }, (_, i) => [
        runScenario(A, { seed: seedOf(A, i) })[p]!.badput.recovery,
        runScenario(B, { seed: seedOf(B, i) })[p]!.badput.recovery,
      ]);
      const base = meanAndHalf(Float64Array.from(runs, (r) => r[0]!)).mean;
      const current = meanAndHalf(Float64Array.from(runs, (r) => r[1]!)).mean;
      const d = {
        kind: "paired" as const,
        n: N,
        firstSeed: 11,
        aMean: current,
        bMean: base,
        ...meanAndHalf(Float64Array.from(runs, ([a, b]) => b! - a!)),
      };
      expect(text(panel, `compare-badput-${p}-recovery`)).toBe(shareText({ base, current, d }));
    }
    // The synchronous job's recovery is what the slower restart changes, by more than its error;
    // FT-HSDP's replicas do not restart the job.
    expect(text(panel, "compare-badput-synchronous-recovery")).toMatch(
      /^1\.\d% → 3\.\d% \(\+1\.\d ± 0\.\d points\)$/,
    );
    expect(text(panel, "compare-badput-ftHsdp-recovery")).toBe("none in either");
    // Per-run shares of another scenario than the result's: the table waits rather than pair them.
    mcStore.setState({ currentBadput: { scenario: A, samples: sa.badputSamples() } });
    const waiting = renderToStaticMarkup(createElement(CompareWith));
    expect(waiting).toContain('data-testid="compare-badput-waiting"');
    expect(waiting).not.toContain('data-testid="compare-badput"');
  });

  it("takes a pasted link's scenario, and refuses a bad link or file by name", () => {
    expect(scenarioFromLink(`https://x.example/${encodeScenarioHash(A)}`)).toEqual(A);
    expect(scenarioFromLink("https://x.example/#s=garbage")).toBeInstanceOf(Error);
    expect((scenarioFromLink("https://x.example/") as Error).message).toMatch(/no s=/);
    expect((scenarioFromFile("{", 1) as Error).message).toMatch(/not JSON/);
    expect((scenarioFromFile('{"cluster":{"gpus":-1}}', 20) as Error).message).toMatch(/cluster\.gpus/);
    expect(scenarioFromFile(JSON.stringify(B), 10)).toEqual(B);
  });
});
