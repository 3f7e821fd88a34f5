/**
 * Chapter 7's slow hosts (docs/model.md §6): the same cluster without slow
 * episodes, with them waited out, and with the slow host evicted, synchronous and FT-HSDP, each
 * one run of the engine in the story's worker. Every number in the words is the scenario's or the
 * runs'.
 */
import { parseScenario } from "../../../sim/scenario/index.ts";
import { meanEpisodeSeconds, slowShare } from "../../../sim/slow/slowEpisodes.ts";
import { type StoryRun, storyRun } from "../../../state/storyData.ts";
import { count, pct } from "../../format.ts";
import { Figure, Prose, WhenLoaded } from "../parts.tsx";
import { usePromise } from "../usePromise.ts";
import { EttrBar } from "./EttrBar.tsx";
import { EVICT_AFTER_MINUTES, SLOW_CASES } from "./realClustersScenarios.ts";
import { slowWhy } from "./slowWords.ts";

async function compute(): Promise<StoryRun[]> {
  const runs: StoryRun[] = [];
  for (const c of SLOW_CASES) runs.push(await storyRun(c.scenario, false));
  return runs;
}

export function SlowHostsProse() {
  const s = parseScenario(SLOW_CASES[1]?.scenario);
  const hosts = s.cluster.gpus / s.cluster.gpusPerHost;
  return (
    <Prose>
      <p data-testid="slow-intro">
        Hosts also fail without dying: a throttled GPU, a flapping link, a congested switch port. Every step
        waits for its slowest rank, so one slow host slows the whole job. Greyhound (Alibaba) finds that most
        large jobs meet such slowdowns, episodes of 10–25 minutes typically and up to hours, jobs 1.34× slower
        on average; Meta's PRISM measures about 9 % variability in GPU time at 64K GPUs. Below, the same
        cluster with {count(hosts * s.slow.perHostDay)} slow episodes a day across its {count(hosts)} hosts,
        each {count(s.slow.factor, 1)}× slower for {count(s.slow.medianMinutes)} min in the median (
        {count(meanEpisodeSeconds(s) / 60)} min on average): some host is slow {pct(slowShare(s), 0)} of the
        time. C4 finds a slow host from the collectives' timings. Then a synchronous job can only wait it out,
        or restart without it; FT-HSDP can evict the slow host's replica, here after {EVICT_AFTER_MINUTES}{" "}
        min, and train on without it, at the price of a replica restart.
      </p>
    </Prose>
  );
}

export function SlowHostsFigure() {
  const loaded = usePromise("real-clusters-slow", compute);
  return (
    <Figure label="ETTR with slow hosts, waited out or evicted">
      <WhenLoaded loaded={loaded}>
        {(runs) => (
          <ul className="rc-rows">
            {SLOW_CASES.map((c, i) => {
              const run = runs[i] as StoryRun;
              return (
                <li key={c.id} className="rc-row" data-testid={`slow-${c.id}`}>
                  <p className="rc-label">{c.label}</p>
                  <EttrBar
                    policy="synchronous"
                    label="sync"
                    ettr={run.synchronous.ettr}
                    testid={`slow-${c.id}-sync`}
                  />
                  <EttrBar
                    policy="ftHsdp"
                    label="FT-HSDP"
                    ettr={run.ftHsdp.ettr}
                    testid={`slow-${c.id}-ft`}
                  />
                  <p className="muted rc-why" data-testid={`slow-${c.id}-why`}>
                    {slowWhy(c.id, runs)}
                  </p>
                </li>
              );
            })}
          </ul>
        )}
      </WhenLoaded>
    </Figure>
  );
}

export const SLOW_SOURCES = [
  "Greyhound/FALCON (Alibaba), USENIX ATC '25, arXiv 2410.12588: slowdowns from under a minute to ~10 h; large jobs 1.34× slower on average. PRISM (Meta), arXiv 2510.15596: ~9 % GPU-time variability at 64K GPUs. C4 (Alibaba), HPCA '25: slow nodes isolated from collective timings.",
  `The slow episodes are the preset “Slow hosts as Greyhound reports them” (its factor, σ and the rate that makes the job 1.34× slower are our assumptions); the ${EVICT_AFTER_MINUTES}-minute eviction is our choice. Sweep “Evict after” on the Cluster view to see how long to wait.`,
] as const;
