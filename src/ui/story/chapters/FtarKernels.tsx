/**
 * Chapter 6: FTAR on real kernels. The WebGPU lab's fault demo, embedded: a ring all-reduce of
 * real WGSL kernels across simulated devices, one device killed mid-ring, the ring re-formed by
 * the CPU control plane, the survivors' average checked against a float64 reference.
 */
import { useEffect } from "react";
import { labStore, useLabStore } from "../../../state/labStore.ts";
import { Term } from "../../glossary/Term.tsx";
import { FaultDemo } from "../../lab/FaultDemo.tsx";
import "../../lab/lab.css";
import { Figure, Prose, Sources } from "../parts.tsx";

export function FtarKernelsChapter() {
  const status = useLabStore((s) => s.status);
  const adapter = useLabStore((s) => s.adapter);
  useEffect(() => {
    if (labStore.getState().adapter === null) void labStore.getState().start();
  }, []);
  // Run once on arrival, so the reader sees the ring break and heal without looking for a button.
  useEffect(() => {
    const s = labStore.getState();
    if (status === "ready" && s.faultResult === null && s.faultLog.length === 0) void s.runFault();
  }, [status]);
  return (
    <>
      <Prose>
        <p>
          What does <Term id="ftar" /> do when a member dies mid-all-reduce? Here it runs for real: each
          simulated device is a buffer in your browser's GPU, and WGSL kernels add and pass on gradient chunks
          around a ring. The <strong>CPU runs the control</strong>: it sees a step that never completes, asks
          every device if it is alive, drops the silent one, and re-forms the ring over the survivors. The
          result is checked against a float64 average of the survivors' inputs.
          {adapter?.kind === "cpu"
            ? " This browser has no WebGPU, so the same schedule runs on typed arrays."
            : ""}
        </p>
      </Prose>
      <Figure label="A ring all-reduce losing a device" volatile>
        <div className="story-lab">
          <FaultDemo />
        </div>
      </Figure>
      <Sources
        items={[
          "FT-HSDP paper (arXiv 2602.00277): the CPU drives FTAR's control, the GPU moves the data; ring reduce-scatter then all-gather, N−1 steps each.",
          "Reported in summaries of the paper: FTAR rings of at most 16 ranks.",
        ]}
      />
    </>
  );
}
