/** The run's settings; every change is checked whole, and a refusal names the field. */
import { useState } from "react";
import type { Mode } from "../../gpu/executor.ts";
import { useTrainStore } from "../../state/trainStore.ts";
import {
  DEFAULT_DILOCO,
  type DilocoConfig,
  failuresText,
  HIDDEN_SIZES,
  parseFailures,
  type TrainConfig,
} from "../../train/config.ts";
import { layoutFor } from "../../train/model.ts";
import { LR_POLICIES, type LrPolicy } from "../../train/plan.ts";
import { Field, SelectField } from "../form/Field.tsx";

const MODE_TEXT: Record<Mode, string> = {
  shared: "shared: one GPUDevice",
  separate: "separate: a GPUDevice per replica",
  cpu: "CPU (float32 typed arrays)",
};

/** A select's choices, with the value on screen among them (a link may name one off the list). */
function withValue(xs: readonly number[], v: number): { value: number }[] {
  return [...new Set([...xs, v])].sort((a, b) => a - b).map((value) => ({ value }));
}

/** What "replica@step+down" means, said of the first failure set (or of the placeholder's). */
export function failuresHelp(failures: readonly { replica: number; step: number; down: number }[]): string {
  const f = failures[0] ?? { replica: 1, step: 60, down: 30 };
  return `${f.replica}@${f.step}+${f.down}: replica ${f.replica} fails at step ${f.step} and is down for ${f.down} steps, then rejoins.`;
}

export function TrainForm({ onError }: { onError: (m: string | null) => void }) {
  const config = useTrainStore((s) => s.config);
  const modes = useTrainStore((s) => s.modes);
  const mode = useTrainStore((s) => s.mode);
  const status = useTrainStore((s) => s.status);
  const setConfig = useTrainStore((s) => s.setConfig);
  const setMode = useTrainStore((s) => s.setMode);
  const [failDraft, setFailDraft] = useState<string | null>(null);
  const [seedDraft, setSeedDraft] = useState<string | null>(null);
  const off = status !== "ready";
  const apply = (patch: Partial<TrainConfig>): boolean => {
    try {
      setConfig(patch);
      onError(null);
      return true;
    } catch (e) {
      onError(e instanceof Error ? e.message : String(e));
      return false;
    }
  };
  const togglePolicy = (p: LrPolicy, on: boolean) =>
    apply({ policies: LR_POLICIES.filter((q) => (q === p ? on : config.policies.includes(q))) });
  const d = config.diloco;
  const setD = (patch: Partial<DilocoConfig>) => d && apply({ diloco: { ...d, ...patch } });
  return (
    <div className="lab-form train-form">
      <SelectField
        label="Compare"
        testId="train-compare"
        value={d ? "diloco" : "ft"}
        disabled={off}
        choices={[
          { value: "ft", text: "FT-HSDP and synchronous (SGD)" },
          { value: "diloco", text: "DiLoCo and DDP (AdamW)" },
        ]}
        onChange={(v) => apply({ diloco: v === "diloco" ? DEFAULT_DILOCO : null })}
      />
      <SelectField
        label="Mode"
        value={mode}
        disabled={off}
        choices={modes.map((m) => ({ value: m, text: MODE_TEXT[m] }))}
        onChange={(v) => setMode(v as Mode)}
      />
      <SelectField
        label="Hidden width"
        value={config.hidden}
        disabled={off}
        choices={HIDDEN_SIZES.map((h) => ({
          value: h,
          text: `${h} (${layoutFor(h).count.toLocaleString("en")} params)`,
        }))}
        onChange={(v) => apply({ hidden: Number(v) })}
      />
      <SelectField
        label="Replicas (R)"
        value={config.replicas}
        disabled={off}
        choices={[2, 3, 4, 5, 6, 7, 8].map((r) => ({ value: r }))}
        onChange={(v) => apply({ replicas: Number(v) })}
      />
      <SelectField
        label="Steps"
        value={config.steps}
        disabled={off}
        choices={[50, 100, 200, 400, 800].map((s) => ({ value: s }))}
        onChange={(v) => apply({ steps: Number(v) })}
      />
      {d && (
        <>
          <SelectField
            label="H (inner steps per round)"
            value={d.every}
            disabled={off}
            choices={withValue([5, 10, 20, 25, 50], d.every)}
            onChange={(v) => setD({ every: Number(v) })}
          />
          <SelectField
            label="Inner lr (AdamW)"
            value={d.innerLr}
            disabled={off}
            choices={withValue([0.005, 0.01, 0.02, 0.03], d.innerLr)}
            onChange={(v) => setD({ innerLr: Number(v) })}
          />
          <SelectField
            label="Outer lr (Nesterov)"
            value={d.outerLr}
            disabled={off}
            choices={withValue([0.5, 0.7, 1], d.outerLr)}
            onChange={(v) => setD({ outerLr: Number(v) })}
          />
          <SelectField
            label="Outer momentum"
            value={d.outerMomentum}
            disabled={off}
            choices={withValue([0, 0.5, 0.9], d.outerMomentum)}
            onChange={(v) => setD({ outerMomentum: Number(v) })}
          />
        </>
      )}
      {!d && (
        <SelectField
          label="Learning rate"
          value={config.lr}
          disabled={off}
          choices={[0.05, 0.1, 0.2, 0.3, 0.5].map((s) => ({ value: s }))}
          onChange={(v) => apply({ lr: Number(v) })}
        />
      )}
      {!d && (
        <SelectField
          label="Checkpoint every (sync)"
          value={config.checkpointEvery}
          disabled={off}
          choices={[5, 10, 25, 50, 100].map((s) => ({ value: s, text: `${s} steps` }))}
          onChange={(v) => apply({ checkpointEvery: Number(v) })}
        />
      )}
      <Field label="Seed">
        {(id) => (
          <input
            id={id}
            inputMode="numeric"
            size={8}
            disabled={off}
            value={seedDraft ?? String(config.seed)}
            onChange={(e) => {
              setSeedDraft(e.target.value);
              if (apply({ seed: Number(e.target.value.trim() === "" ? Number.NaN : e.target.value) }))
                setSeedDraft(null);
            }}
          />
        )}
      </Field>
      <Field label="Failures (replica@step+down)">
        {(id) => (
          <>
            <input
              id={id}
              aria-describedby={`${id}-help`}
              size={18}
              disabled={off}
              placeholder="1@60+30, 2@120+10"
              value={failDraft ?? failuresText(config.failures)}
              onChange={(e) => {
                setFailDraft(e.target.value);
                try {
                  if (apply({ failures: parseFailures(e.target.value) })) setFailDraft(null);
                } catch (err) {
                  onError(err instanceof Error ? err.message : String(err));
                }
              }}
            />
            <span id={`${id}-help`} className="muted small train-help" data-testid="train-failures-help">
              {failuresHelp(config.failures)}
            </span>
          </>
        )}
      </Field>
      {!d && (
        <fieldset className="train-policies" disabled={off}>
          <legend>lr policies (FT-HSDP)</legend>
          {LR_POLICIES.map((p) => (
            <label key={p} className="check">
              <input
                type="checkbox"
                checked={config.policies.includes(p)}
                onChange={(e) => togglePolicy(p, e.target.checked)}
              />{" "}
              {p}
            </label>
          ))}
        </fieldset>
      )}
    </div>
  );
}
