import { TABS, type Tab, useAppStore } from "../state/store.ts";
import { ClusterView } from "./cluster/ClusterView.tsx";
import { ThemeToggle } from "./explorer/ThemeToggle.tsx";
import { LabView } from "./lab/LabView.tsx";
import { StepView } from "./step/StepView.tsx";

const TAB_LABELS: Record<Tab, string> = {
  cluster: "Cluster: sync vs FT-HSDP",
  step: "One step: buckets & overlap",
  lab: "WebGPU all-reduce lab",
};

export function App() {
  const tab = useAppStore((s) => s.tab);
  const setTab = useAppStore((s) => s.setTab);
  return (
    <div className="app">
      <header className="app-header">
        <h1>FT-HSDP Explorer</h1>
        <div aria-label="Views" className="tabs" role="tablist">
          {TABS.map((t) => (
            <button
              key={t}
              type="button"
              role="tab"
              aria-selected={tab === t}
              className={tab === t ? "tab active" : "tab"}
              onClick={() => setTab(t)}
            >
              {TAB_LABELS[t]}
            </button>
          ))}
        </div>
        <ThemeToggle />
      </header>
      <main>
        {tab === "cluster" && <ClusterView />}
        {tab === "step" && <StepView />}
        {tab === "lab" && <LabView />}
      </main>
    </div>
  );
}
