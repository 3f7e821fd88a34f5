/**
 * The form kit every view's knobs are made of: a labelled control whose accessible name is exactly
 * its label, a menu, and (NumberField.tsx) a number that keeps what is typed. Each view styles the
 * row through `className` ("knob" in the cluster panel, "step-field" in the step view, "field" in
 * the lab).
 */
import { type ReactNode, useId } from "react";
import { controlId } from "../../state/hideFlags.ts";

/** The view a row's class belongs to, for control ids derived from labels ("lab.devices"). */
const VIEW_OF_CLASS: Record<string, string> = { knob: "cluster", "step-field": "step", field: "lab" };

export interface FieldProps {
  label: string;
  unit?: string | undefined;
  /** Longer help, shown on hover. */
  help?: string | undefined;
  className?: string | undefined;
  /** What is wrong with the value, in words naming the field and what is allowed. */
  error?: string | null | undefined;
  /** The row's id in a classroom link's `hide=`; by default its test id, or its view and label. */
  control?: string | undefined;
  children: (id: string, errorId: string | undefined) => ReactNode;
}

export function Field({ label, unit, help, className = "field", error, control, children }: FieldProps) {
  const id = useId();
  const errorId = error ? `${id}-err` : undefined;
  return (
    <div
      className={className}
      title={help}
      data-control={control ?? controlId(VIEW_OF_CLASS[className] ?? "field", label)}
    >
      <label htmlFor={id}>
        {label}
        {unit ? <span className="muted"> ({unit})</span> : null}
      </label>
      {children(id, errorId)}
      {error ? (
        <div id={errorId} className="field-error error-text" role="alert">
          {error}
        </div>
      ) : null}
    </div>
  );
}

export interface Choice {
  value: string | number;
  text?: string;
}

/** A labelled menu. */
export function SelectField({
  label,
  value,
  choices,
  disabled,
  help,
  className,
  testId,
  onChange,
}: {
  label: string;
  value: string | number;
  choices: readonly Choice[];
  disabled?: boolean;
  help?: string | undefined;
  className?: string;
  testId?: string;
  onChange: (raw: string) => void;
}) {
  return (
    <Field label={label} help={help} className={className} control={testId}>
      {(id) => (
        <select
          id={id}
          value={value}
          disabled={disabled}
          data-testid={testId}
          onChange={(e) => onChange(e.target.value)}
        >
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
