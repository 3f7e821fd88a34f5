import { Fragment } from "react";
import { policyOf } from "../../sim/policies/index.ts";
import type { PolicyKey } from "../../sim/policies/policyKeys.ts";
import type { Scenario } from "../../sim/scenario/index.ts";
import { useAppStore } from "../../state/store.ts";
import { Term } from "../glossary/Term.tsx";
import { KnobDrawer } from "../KnobDrawer.tsx";
import { syncRollbackWords } from "../scenarioWords.ts";
import { ShareBar } from "../share/ShareBar.tsx";
import { Explorer } from "./Explorer.tsx";
import { FailureLogImport } from "./FailureLogImport.tsx";
import { KnobsPanel } from "./KnobsPanel.tsx";
import { ReplayLinkNote } from "./ReplayLinkNote.tsx";
import { ResultsPanel } from "./ResultsPanel.tsx";
import { StrategyPicker } from "./StrategyPicker.tsx";
import "./cluster.css";

/** The closed drawer's one line: the cluster at a glance. */
function knobsSummary(s: Scenario): string {
  const n = (x: number) => x.toLocaleString("en-US");
  return `${n(s.cluster.gpus)} GPUs · ${n(s.cluster.replicas)} replicas · ${n(s.training.days)} days`;
}

/** Who meets the same failures: as many runs as strategies are picked. */
function sameFailuresWords(n: number): string {
  if (n === 1) return "Any strategy picked beside the one below would face";
  return n === 2 ? "Both runs below face" : `All ${n} runs below face`;
}

/** What one selected strategy does at a failure: the two the paper compares in its words, the others by their blurb. */
function PolicyIntro({ policy, scenario }: { policy: PolicyKey; scenario: Scenario }) {
  if (policy === "synchronous")
    return (
      <>
        <strong>Synchronous</strong> training stops everyone at each failure and{" "}
        <span data-testid="intro-sync-rollback">{syncRollbackWords(scenario)}</span>.
      </>
    );
  if (policy === "ftHsdp")
    return (
      <>
        <strong>FT-HSDP</strong> (fault-tolerant <Term id="hsdp" />) takes only the failed data-parallel{" "}
        <Term id="replica" /> offline; the others keep training through <Term id="ftar" />, and the replica
        does a <Term id="catchUp" /> from a healthy peer.
      </>
    );
  return (
    <>
      <strong>{policyOf(policy).label}</strong>: {policyOf(policy).blurb}
    </>
  );
}

export function ClusterView() {
  const scenario = useAppStore((s) => s.scenario);
  return (
    <div className="cluster-view">
      <div className="view-layout">
        <KnobDrawer label="Scenario knobs" summary={knobsSummary(scenario)}>
          <KnobsPanel />
        </KnobDrawer>
        <div className="cluster-main">
          <div className="cluster-intro">
            <p data-testid="cluster-intro">
              A job on a large cluster fails every few minutes (its <Term id="mtbf" />
              ).{" "}
              {scenario.policies.map((key) => (
                <Fragment key={key}>
                  <PolicyIntro policy={key} scenario={scenario} />{" "}
                </Fragment>
              ))}
              {sameFailuresWords(scenario.policies.length)} the <em>same</em> failures; a{" "}
              <Term id="hang">hang</Term> is found later than a fail-stop.
            </p>
            <ShareBar opens="this exact scenario, seed included">
              <ReplayLinkNote />
            </ShareBar>
          </div>
          <StrategyPicker />
          <ResultsPanel />
          <Explorer />
          <FailureLogImport />
        </div>
      </div>
    </div>
  );
}
