/**
 * One policy's Monte Carlo band on its card: the mean ETTR with its 95 % interval and the run
 * count, p5 – p95, and, with a baseline pinned, the baseline's value and the difference paired by
 * seed with its error (over the seeds both ran: when those are not every run of both, the line
 * names them and the two means over them, so the difference adds up on screen). It streams: the first chunk's runs show at once and the band tightens as
 * runs arrive (mcStore.ts, clusterRunner.ts); a band is only shown for the scenario on screen.
 */
import type { EttrDifference } from "../../sim/monteCarlo/ettrDifference.ts";
import type { EttrEstimate } from "../../sim/monteCarlo/mcStream.ts";
import type { PolicyKey } from "../../sim/policies/policyKeys.ts";
import { useMcStore } from "../../state/mcStore.ts";
import { useAppStore } from "../../state/store.ts";
import { count, pct } from "../format.ts";
import { Term } from "../glossary/Term.tsx";
import { bandPair } from "./bandPair.ts";
import { deltaText, digitsFor } from "./deltaWords.ts";

/** "82.2% ± 0.1 (95%, 400 runs)": what a person quotes. */
export function ciText(e: Pick<EttrEstimate, "mean" | "half" | "n">): string {
  // One run has no spread to go on: an interval of ± 0 would claim a certainty it does not have.
  if (e.n < 2) return `${pct(e.mean)} (1 run, no interval yet)`;
  const d = digitsFor(e.half * 100);
  return `${pct(e.mean, d)} ± ${(e.half * 100).toFixed(d)} (95%, ${count(e.n)} runs)`;
}

/**
 * What a difference is over: "paired by seed, 400 runs" when it pairs every run of both; else the
 * seeds it pairs and each side's mean over them; or why it is unpaired.
 */
export function deltaBasis(d: EttrDifference, runs: number, baseRuns: number): string {
  if (d.kind === "unpaired")
    return "unpaired: the baseline ran none of these seeds, so this is the difference of the two means above";
  if (d.n === runs && d.n === baseRuns) return `paired by seed, ${count(d.n)} runs`;
  const which =
    d.n === 1
      ? `the one seed both ran, ${d.firstSeed}`
      : `the ${count(d.n)} seeds both ran, ${d.firstSeed}–${(d.firstSeed + d.n - 1) >>> 0}`;
  return `paired by seed over ${which}: ${pct(d.aMean, 2)} here, ${pct(d.bMean, 2)} in the baseline`;
}

export function McBand({ policy, first }: { policy: PolicyKey; first: boolean }) {
  const scenario = useAppStore((s) => s.scenario);
  const current = useMcStore((s) => s.current);
  const base = useMcStore((s) => s.base);
  const baseline = useMcStore((s) => s.baseline);
  const { e, b, d } = bandPair(policy, scenario, { current, base, baseline });
  return (
    <>
      <dt>
        Mean, <Term id="ci95">95% interval</Term>
      </dt>
      <dd>
        <span data-testid={`ettr-mc-${policy}`} data-runs={e?.n}>
          {e ? ciText(e) : "…"}
        </span>
      </dd>
      <dt>{first ? <Term id="p5p95">p5 – p95</Term> : "p5 – p95"} of runs</dt>
      <dd data-testid={`ettr-p5p95-${policy}`}>{e ? `${pct(e.p5)} – ${pct(e.p95)}` : "…"}</dd>
      {baseline ? (
        <>
          <dt>Baseline</dt>
          <dd data-testid={`ettr-base-${policy}`}>
            {b ? ciText(b) : base || !baseline.policies.includes(policy) ? "not in the baseline" : "…"}
          </dd>
          <dt>Δ vs baseline</dt>
          <dd data-testid={`ettr-delta-${policy}`} className="mc-delta">
            {d ? (
              <>
                <strong>{deltaText(d)}</strong>{" "}
                <span className="muted" data-testid={`ettr-delta-basis-${policy}`}>
                  ({deltaBasis(d, e?.n ?? 0, b?.n ?? 0)})
                </span>
              </>
            ) : (
              "…"
            )}
          </dd>
        </>
      ) : null}
    </>
  );
}
