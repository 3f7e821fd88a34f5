/** Pick a collective and run it, or sweep sizes for the chart. */
import type { Mode } from "../../gpu/executor.ts";
import { algorithmsFor } from "../../gpu/lab.ts";
import type { Algorithm } from "../../gpu/schedule.ts";
import { SIZES, useLabStore } from "../../state/labStore.ts";
import { Field } from "./Field.tsx";
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
  const cancel = useLabStore((s) => s.cancel);
  const progress = useLabStore((s) => s.progress);
  const ready = status === "ready";
  return (
    <div className="lab-form">
      <Field label="Mode">
        {(id) => (
          <select
            id={id}
            value={form.mode}
            disabled={!ready}
            onChange={(e) => setForm({ mode: e.target.value as Mode })}
          >
            {modes.map((m) => (
              <option key={m} value={m}>
                {MODE_TEXT[m]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Devices">
        {(id) => (
          <select
            id={id}
            value={form.devices}
            disabled={!ready}
            onChange={(e) => setForm({ devices: Number(e.target.value) })}
          >
            {Array.from({ length: 15 }, (_, i) => i + 2).map((n) => (
              <option key={n}>{n}</option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Size / device">
        {(id) => (
          <select
            id={id}
            value={form.bytesPerDevice}
            disabled={!ready}
            onChange={(e) => setForm({ bytesPerDevice: Number(e.target.value) })}
          >
            {SIZES.filter((s) => s <= max || max === 0).map((s) => (
              <option key={s} value={s}>
                {bytes(s)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Algorithm">
        {(id) => (
          <select
            id={id}
            value={form.algorithm}
            disabled={!ready}
            onChange={(e) => setForm({ algorithm: e.target.value as Algorithm })}
          >
            {algorithmsFor(form.mode).map((a) => (
              <option key={a}>{a}</option>
            ))}
          </select>
        )}
      </Field>
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
      {status === "running" && (
        <button type="button" onClick={cancel}>
          Cancel
        </button>
      )}
      <output aria-live="polite" className="lab-progress">
        {progress}
      </output>
    </div>
  );
}
