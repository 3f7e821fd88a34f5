import { Explorer } from "../explorer/Explorer.tsx";
import { KnobsPanel } from "./KnobsPanel.tsx";
import { ResultsPanel } from "./ResultsPanel.tsx";
import { LinkErrorBanner, ShareBar } from "./ShareBar.tsx";
import "./cluster.css";

export function ClusterView() {
  return (
    <div className="cluster-view">
      <LinkErrorBanner />
      <div className="cluster-layout">
        <KnobsPanel />
        <div className="cluster-main">
          <div className="cluster-intro">
            <p>
              A job on a large cluster fails every few minutes. <strong>Synchronous</strong> training stops
              everyone at each failure and rolls back to its last checkpoint. <strong>FT-HSDP</strong> takes
              only the failed data-parallel replica offline; the others keep training, and the replica catches
              up from a healthy peer. Both runs below face the <em>same</em> failures.
            </p>
            <ShareBar />
          </div>
          <ResultsPanel />
          <Explorer />
        </div>
      </div>
    </div>
  );
}
