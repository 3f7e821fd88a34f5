import { type ReactNode, useId } from "react";

/** A labelled control whose accessible name is exactly its label (not the label plus its options). */
export function Field({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children(id)}
    </div>
  );
}

export interface Choice {
  value: string | number;
  text?: string;
}

/** A labelled menu: the lab's forms are rows of these. */
export function SelectField({
  label,
  value,
  choices,
  disabled,
  onChange,
}: {
  label: string;
  value: string | number;
  choices: readonly Choice[];
  disabled: boolean;
  onChange: (raw: string) => void;
}) {
  return (
    <Field label={label}>
      {(id) => (
        <select id={id} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value)}>
          {choices.map((c) => (
            <option key={c.value} value={c.value}>
              {c.text ?? c.value}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
