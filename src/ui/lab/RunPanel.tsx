/** Pick a collective and run it, or sweep sizes for the chart. */
import type { Mode } from "../../gpu/executor.ts";
import { LAB_MEMORY_BUDGET, labRunProblems, MAX_LAB_DEVICES, MIN_LAB_DEVICES } from "../../gpu/labBudget.ts";
import type { Algorithm } from "../../gpu/schedule.ts";
import { algorithmsFor } from "../../lab/labRequests.ts";
import { SIZES } from "../../link/labLink.ts";
import { useLabStore } from "../../state/labStore.ts";
import { SelectField } from "../form/Field.tsx";
import { NumberField } from "../form/NumberField.tsx";
import { JobProgressBar } from "./JobProgressBar.tsx";
import { bytes } from "./labFormat.ts";

const MODE_TEXT: Record<Mode, string> = {
  shared: "shared: one GPUDevice (one NVLink switch)",
  separate: "separate: a GPUDevice each, hops via the host",
  cpu: "CPU typed arrays",
};

export function RunPanel() {
  const form = useLabStore((s) => s.form);
  const modes = useLabStore((s) => s.modes);
  const max = useLabStore((s) => s.maxBytesPerDevice);
  const status = useLabStore((s) => s.status);
  const setForm = useLabStore((s) => s.setForm);
  const run = useLabStore((s) => s.run);
  const sweep = useLabStore((s) => s.sweep);
  const ready = status === "ready";
  return (
    <div className="lab-form">
      <SelectField
        label="Mode"
        value={form.mode}
        disabled={!ready}
        choices={modes.map((m) => ({ value: m, text: MODE_TEXT[m] }))}
        onChange={(v) => setForm({ mode: v as Mode })}
      />
      <NumberField
        label="Devices"
        value={form.devices}
        min={MIN_LAB_DEVICES}
        max={MAX_LAB_DEVICES}
        integer
        disabled={!ready}
        testId="lab-devices"
        help={`Whole number, ${MIN_LAB_DEVICES}–${MAX_LAB_DEVICES}; devices × size must stay within the lab's ${bytes(LAB_MEMORY_BUDGET)} memory budget.`}
        onChange={(v) => setForm({ devices: v })}
      />
      <SelectField
        label="Size / device"
        value={form.bytesPerDevice}
        disabled={!ready}
        testId="lab-size"
        // Only sizes that fit the adapter and the memory budget at this device count (and the current one).
        choices={SIZES.filter(
          (s) =>
            s === form.bytesPerDevice ||
            labRunProblems({ devices: form.devices, bytesPerDevice: s }, max).length === 0,
        ).map((s) => ({ value: s, text: bytes(s) }))}
        onChange={(v) => setForm({ bytesPerDevice: Number(v) })}
      />
      <SelectField
        label="Algorithm"
        value={form.algorithm}
        disabled={!ready}
        choices={algorithmsFor(form.mode).map((a) => ({ value: a }))}
        onChange={(v) => setForm({ algorithm: v as Algorithm })}
      />
      <button type="button" onClick={() => void run()} disabled={!ready}>
        Run
      </button>
      <button
        type="button"
        onClick={() => void sweep()}
        disabled={!ready}
        title="ring, halving-doubling and one-shot, 4 KiB to 4 MiB"
      >
        Sweep sizes
      </button>
      <JobProgressBar jobs={["run", "sweep", "bench"]} label="Run" />
    </div>
  );
}
