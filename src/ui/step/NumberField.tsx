import { useEffect, useId, useState } from "react";

interface Props {
  label: string;
  value: number;
  onChange(v: number): void;
  min?: number;
  max?: number;
  step?: number;
  unit?: string;
  disabled?: boolean;
  title?: string;
}

/**
 * A labelled number input that keeps what is being typed and hands on only valid numbers, so a
 * field can be cleared and retyped without snapping back.
 */
export function NumberField({
  label,
  value,
  onChange,
  min = 0,
  max = Number.POSITIVE_INFINITY,
  step,
  unit,
  disabled,
  title,
}: Props) {
  const id = useId();
  const [draft, setDraft] = useState(String(value));
  useEffect(() => {
    setDraft((d) => (Number(d) === value ? d : String(value)));
  }, [value]);
  const n = Number(draft);
  const valid = draft.trim() !== "" && Number.isFinite(n) && n >= min && n <= max;
  return (
    <div className="step-field" title={title}>
      <label htmlFor={id}>{label}</label>
      <span className="step-field-input">
        <input
          id={id}
          type="number"
          value={draft}
          min={min}
          max={Number.isFinite(max) ? max : undefined}
          step={step ?? "any"}
          disabled={disabled}
          aria-invalid={!valid}
          onChange={(e) => {
            setDraft(e.target.value);
            const v = Number(e.target.value);
            if (e.target.value.trim() !== "" && Number.isFinite(v) && v >= min && v <= max) onChange(v);
          }}
        />
        {unit && <span className="muted">{unit}</span>}
      </span>
    </div>
  );
}
