/**
 * The WebGPU all-reduce lab: real WGSL kernels reduce and move data between simulated devices,
 * every run checked against a float64 reference, and FTAR's recovery from a killed device.
 */

import { useEffect } from "react";
import { labStore, useLabStore } from "../../state/labStore.ts";
import { Panel } from "../boundary/Panel.tsx";
import { Term } from "../glossary/Term.tsx";
import { ShareBar } from "../share/ShareBar.tsx";
import { AdapterBadge } from "./AdapterBadge.tsx";
import { BusBwChart } from "./BusBwChart.tsx";
import { exposeBenchHook } from "./benchHook.ts";
import { FaultDemo } from "./FaultDemo.tsx";
import { CeilingsLine, ResultsTable } from "./ResultsTable.tsx";
import { RunPanel } from "./RunPanel.tsx";
import "./lab.css";

export function LabView() {
  const status = useLabStore((s) => s.status);
  const adapter = useLabStore((s) => s.adapter);
  const error = useLabStore((s) => s.error);
  const results = useLabStore((s) => s.results);
  const ceilings = useLabStore((s) => s.ceilings);
  const form = useLabStore((s) => s.form);
  const retry = useLabStore((s) => s.retry);

  useEffect(() => {
    if (labStore.getState().adapter === null) void labStore.getState().start();
    exposeBenchHook();
  }, []);

  return (
    <div className="lab">
      <div className="lab-head">
        <h2>WebGPU all-reduce lab</h2>
        <AdapterBadge adapter={adapter} />
        <ShareBar opens="these lab settings; press Run to measure them on your own GPU" />
      </div>
      <p className="lab-teach">
        <Term id="ftar" /> splits the work the way this page does. The{" "}
        <strong>GPU moves and reduces the data</strong>: here, WGSL kernels add and copy gradient chunks
        between simulated devices. The <strong>CPU runs the control</strong>: who is in the ring, how long to
        wait for a step, what to do when a device stops answering. Because the decision is made on the CPU, a
        dead GPU cannot take the control plane down with it; the survivors re-form the ring and carry on with
        a slightly smaller average.
        {adapter?.kind === "cpu" && " No WebGPU here, so the same schedules run on typed arrays instead."}
        {adapter?.kind === "software" &&
          " This adapter is software (the GPU is emulated on the CPU), so bandwidths are CPU-sized."}
      </p>
      {(status === "lost" || status === "error") && (
        <div className="lab-alert" role="alert">
          <p>{status === "lost" ? error : `Something went wrong: ${error}`}</p>
          <button type="button" onClick={() => void retry()}>
            Retry
          </button>
        </div>
      )}
      <Panel what="The all-reduce run" className="lab-card" aria-labelledby="run-title">
        <h2 id="run-title">Run a collective</h2>
        <p className="lab-note">
          Each run draws fresh random inputs, fills every output with NaN first, then compares each output
          element with a float64 sum within (k+1)·2⁻²³·Σ|xᵢ|. <Term id="busbw">algbw</Term> = size ÷ time;
          busbw = algbw × 2(n−1)/n for all-reduce and × (n−1)/n for reduce-scatter and all-gather
          (nccl-tests). Efficiency = bytes the algorithm must read and write ÷ time ÷ the streaming-kernel
          ceiling.
        </p>
        <RunPanel />
        <CeilingsLine ceilings={ceilings} />
        <div className="lab-results">
          <ResultsTable results={results} />
          <BusBwChart results={results} mode={form.mode} devices={form.devices} />
        </div>
      </Panel>
      <FaultDemo />
    </div>
  );
}
