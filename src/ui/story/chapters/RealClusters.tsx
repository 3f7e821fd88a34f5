/**
 * Chapter 7: what real clusters add (cluster model v2). The headline cluster with one real-cluster
 * effect at a time: job-wide software failures, rack failures packed or striped, a spare pool that
 * runs dry (the presets of those names). Sync and FT-HSDP ETTR as bars beside the plain headline's, each computed by the engine
 * in the story's worker.
 */
import type { RunResult } from "../../../sim/types.ts";
import { storyRun } from "../../../state/storyData.ts";
import { pct } from "../../format.ts";
import { Term } from "../../glossary/Term.tsx";
import { Figure, Prose, Sources, WhenLoaded } from "../parts.tsx";
import { usePromise } from "../usePromise.ts";
import { REAL_CLUSTER_CASES, type RealClusterCase } from "./realClustersScenarios.ts";

async function compute(): Promise<RunResult[]> {
  const runs: RunResult[] = [];
  for (const c of REAL_CLUSTER_CASES) runs.push(await storyRun(c.scenario, false));
  return runs;
}

function Bar({
  policy,
  label,
  ettr,
  testid,
}: {
  policy: "sync" | "ft";
  label: string;
  ettr: number;
  testid: string;
}) {
  return (
    <div className="rc-bar">
      <span className="rc-bar-name">{label}</span>
      <span className="rc-bar-track">
        <span className={`rc-bar-fill rc-${policy}`} style={{ width: `${ettr * 100}%` }} />
      </span>
      <strong className="mono" data-testid={testid}>
        {pct(ettr)}
      </strong>
    </div>
  );
}

function Row({ c, run }: { c: RealClusterCase; run: RunResult }) {
  return (
    <li className="rc-row" data-testid={`rc-${c.id}`}>
      <p className="rc-label">{c.label}</p>
      <Bar policy="sync" label="sync" ettr={run.synchronous.ettr} testid={`rc-${c.id}-sync`} />
      <Bar policy="ft" label="FT-HSDP" ettr={run.ftHsdp.ettr} testid={`rc-${c.id}-ft`} />
      <p className="muted rc-why">{c.why}</p>
    </li>
  );
}

export function RealClustersChapter() {
  const loaded = usePromise("real-clusters", compute);
  return (
    <>
      <Prose>
        <p>
          The paper's arithmetic has every failure take one host. Real clusters are less tidy. In Llama 3's
          54-day run, 54 of 419 unexpected interruptions were software bugs, which can stop the whole job, and
          35 were network switches and cables, which can take a rack. Spare hosts run out when repairs are
          slow. Below, the headline cluster (98,304 GPUs, 12 <Term id="replica">replicas</Term>) with one of
          these added at a time: synchronous and FT-HSDP <Term id="ettr" />, from one run of the engine each.
          Notice which changes hurt only FT-HSDP, and which hurt both.
        </p>
      </Prose>
      <Figure label="ETTR with real-cluster failures">
        <WhenLoaded loaded={loaded}>
          {(runs) => (
            <ul className="rc-rows">
              {REAL_CLUSTER_CASES.map((c, i) => (
                <Row key={c.id} c={c} run={runs[i] as RunResult} />
              ))}
            </ul>
          )}
        </WhenLoaded>
      </Figure>
      <Sources
        items={[
          "Llama 3 herd of models, arXiv 2407.21783, §3.3.4: 16,384 H100 GPUs, 54 days, 419 unexpected interruptions; software bug 54, network switch/cable 35.",
          "The cases are the explorer's presets of the same names: their shares (10 % job-wide, 20 % racks), racks of 8 hosts, the 30-minute checkpoints of the job-wide case (both jobs), 12 spares and 4 h repairs are our choices, for illustration (cluster model v2, docs/model.md §3).",
        ]}
      />
    </>
  );
}
