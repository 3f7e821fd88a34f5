/**
 * Chapter 7: what real clusters add (cluster model v2). The headline cluster with one real-cluster
 * effect at a time: job-wide software failures, rack failures packed or striped, a spare pool that
 * runs dry (the presets of those names). Sync and FT-HSDP ETTR as bars beside the plain headline's, each computed by the engine
 * in the story's worker; slow hosts, waited out or evicted (SlowHosts.tsx). Then the four strategies (docs/model.md §4) on two of those clusters, with
 * where each one's time goes (the Cluster view's badput bars), every sentence read from the runs.
 */

import { parseScenario } from "../../../sim/scenario/index.ts";
import { useGpuPrice } from "../../../state/gpuPrice.ts";
import { type StoryRun, storyRun } from "../../../state/storyData.ts";
import { BadputBars } from "../../cluster/BadputBars.tsx";
import { strategyRows, strategySentence } from "../../cluster/badputWords.ts";
import { count, duration } from "../../format.ts";
import { Term } from "../../glossary/Term.tsx";
import { Figure, Part, Prose, Sources, WhenLoaded } from "../parts.tsx";
import { usePresenterParts } from "../presenter.ts";
import { usePromise } from "../usePromise.ts";
import { EttrBar } from "./EttrBar.tsx";
import {
  REAL_CLUSTER_CASES,
  type RealClusterCase,
  STRATEGY_CASES,
  type StrategyCase,
} from "./realClustersScenarios.ts";
import { SLOW_SOURCES, SlowHostsFigure, SlowHostsProse } from "./SlowHosts.tsx";

async function compute(): Promise<StoryRun[]> {
  const runs: StoryRun[] = [];
  for (const c of REAL_CLUSTER_CASES) runs.push(await storyRun(c.scenario, false));
  return runs;
}

function Row({ c, run }: { c: RealClusterCase; run: StoryRun }) {
  return (
    <li className="rc-row" data-testid={`rc-${c.id}`}>
      <p className="rc-label">{c.label}</p>
      <EttrBar policy="synchronous" label="sync" ettr={run.synchronous.ettr} testid={`rc-${c.id}-sync`} />
      <EttrBar policy="ftHsdp" label="FT-HSDP" ettr={run.ftHsdp.ettr} testid={`rc-${c.id}-ft`} />
      <p className="muted rc-why">{c.why}</p>
    </li>
  );
}

async function computeStrategies(): Promise<StoryRun[]> {
  const runs: StoryRun[] = [];
  for (const c of STRATEGY_CASES) runs.push(await storyRun(c.scenario, false));
  return runs;
}

function StrategyFigure({ c, run, hidden }: { c: StrategyCase; run: StoryRun; hidden: boolean }) {
  const price = useGpuPrice();
  const rows = strategyRows(run);
  const s = run.scenario;
  return (
    <div className="rc-strategies" data-testid={`rcs-${c.id}`} hidden={hidden}>
      <p className="rc-label">
        {c.label}: {count(s.cluster.gpus)} GPUs, {count(s.training.days)} days
      </p>
      <p className="rc-why" data-testid={`rcs-${c.id}-sentence`}>
        {strategySentence(c.label, rows)}
      </p>
      <BadputBars
        rows={rows}
        gpus={s.cluster.gpus}
        days={s.training.days}
        price={price}
        testPrefix={`rcs-${c.id}`}
      />
    </div>
  );
}

/** The strategies' settings, in words, from the first case's scenario (every case shares them). */
function StrategiesIntro() {
  const first = STRATEGY_CASES[0];
  if (!first) return null;
  const s = parseScenario(first.scenario);
  return (
    <p data-testid="rcs-intro">
      Two more strategies attack the synchronous job&apos;s losses from other sides.{" "}
      <strong>In-memory checkpoints</strong> (Gemini) copy every host&apos;s state into a peer&apos;s CPU
      memory every {minutes(s.inMemory.checkpointMinutes)}, so a host failure restarts in{" "}
      {minutes(s.inMemory.restartSeconds / 60)} and rolls back at most that far; a job-wide failure still goes
      back to storage. <strong>Hot spares</strong> keep {count(s.hotSpare.standbys)} standby hosts warm and
      migrate a broken host onto one in{" "}
      {s.hotSpare.migrateSeconds < 90
        ? `${count(s.hotSpare.migrateSeconds)} s`
        : minutes(s.hotSpare.migrateSeconds / 60)}
      , rolling nothing back, until the standbys run out (each is ready again{" "}
      {minutes(s.hotSpare.refillMinutes)} after use). Below, all four meet the same failures, with storage
      checkpoints every {minutes(s.sync.checkpointMinutes)} for each. Each bar splits one run&apos;s wall time
      into useful training and where the rest went; beside it, the lost GPU-hours and what they cost.
    </p>
  );
}

/** Minutes as a person says them: "3 min", "2.5 min", "1.5 h". */
const minutes = (m: number) => (m < 90 ? `${count(m, Number.isInteger(m) ? 0 : 1)} min` : duration(m * 60));

/**
 * The chapter's parts, one screen each in presenter mode: its failures, slow hosts, and the
 * strategies on each of their clusters (two of those do not fit one 1280×720 screen).
 */
const PARTS: readonly string[] = ["failures", "slow", ...STRATEGY_CASES.map((c) => c.id)];
const STRATEGY_IDS = new Set(STRATEGY_CASES.map((c) => c.id));

export function RealClustersChapter() {
  const strategies = usePromise("real-clusters-strategies", computeStrategies);
  const loaded = usePromise("real-clusters", compute);
  const part = usePresenterParts(PARTS.length);
  const current = part === null ? null : PARTS[part];
  const shown = (id: string) => current === null || current === id;
  return (
    <>
      <Part id="failures" shown={shown("failures")}>
        <Prose>
          <p>
            The paper's arithmetic has every failure take one host. Real clusters are less tidy. In Llama 3's
            54-day run, 54 of 419 unexpected interruptions were software bugs, which can stop the whole job,
            and 35 were network switches and cables, which can take a rack. Spare hosts run out when repairs
            are slow. Below, the headline cluster (98,304 GPUs, 12 <Term id="replica">replicas</Term>) with
            one of these added at a time: synchronous and FT-HSDP <Term id="ettr" />, from one run of the
            engine each. Notice which changes hurt only FT-HSDP, and which hurt both.
          </p>
        </Prose>
        <Figure label="ETTR with real-cluster failures">
          <WhenLoaded loaded={loaded}>
            {(runs) => (
              <ul className="rc-rows">
                {REAL_CLUSTER_CASES.map((c, i) => (
                  <Row key={c.id} c={c} run={runs[i] as StoryRun} />
                ))}
              </ul>
            )}
          </WhenLoaded>
        </Figure>
      </Part>
      <Part id="slow" shown={shown("slow")}>
        <SlowHostsProse />
        <SlowHostsFigure />
      </Part>
      <Part id="strategies" shown={current === null || STRATEGY_IDS.has(current ?? "")}>
        <Prose>
          <StrategiesIntro />
        </Prose>
        <Figure label="Four strategies: where the time goes">
          <WhenLoaded loaded={strategies}>
            {(runs) => (
              <>
                {STRATEGY_CASES.map((c, i) => (
                  <StrategyFigure key={c.id} c={c} run={runs[i] as StoryRun} hidden={!shown(c.id)} />
                ))}
              </>
            )}
          </WhenLoaded>
        </Figure>
      </Part>
      <Sources
        items={[
          "Llama 3 herd of models, arXiv 2407.21783, §3.3.4: 16,384 H100 GPUs, 54 days, 419 unexpected interruptions; software bug 54, network switch/cable 35.",
          ...SLOW_SOURCES,
          "Gemini (Wang et al., SOSP '23): in-memory checkpoints, 13× faster recovery than from storage. Hot spares: warm standbys with live migration, as GB200 NVL72 racks keep 8 of 72 GPUs warm. Their settings are the explorer's presets “Four strategies on the headline cluster” and “Llama 3's cause mix: which strategy”, our choices for illustration; the price per GPU-hour is a placeholder you can set on the Cluster view.",
          "The cases are the explorer's presets of the same names: their shares (10 % job-wide, 20 % racks), racks of 8 hosts, the 30-minute checkpoints of the job-wide case (both jobs), 12 spares and 4 h repairs are our choices, for illustration (cluster model v2, docs/model.md §3).",
        ]}
      />
    </>
  );
}
