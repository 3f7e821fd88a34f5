import { useEffect, useState } from "react";
import { Field } from "./Field.tsx";

export interface NumberFieldProps {
  label: string;
  unit?: string | undefined;
  help?: string | undefined;
  value: number;
  /** Inclusive bounds checked before `onChange` hears of a value. */
  min?: number;
  max?: number;
  integer?: boolean;
  disabled?: boolean;
  className?: string;
  testId?: string;
  /**
   * Hands on a typed number inside the bounds. It may refuse it by returning the problems (an
   * array of strings naming the field); the field then keeps the text and shows them.
   */
  onChange: (v: number) => unknown;
}

// One formatter, made at first use: toLocaleString with options makes one per call (every field, every render).
let numberFormat: Intl.NumberFormat | undefined;
function fmt(n: number): string {
  if (!numberFormat) numberFormat = new Intl.NumberFormat("en-US", { maximumFractionDigits: 6 });
  return numberFormat.format(n);
}

/** Why `v` is outside what the field takes, or null. */
export function boundsProblem(
  label: string,
  v: number,
  { min = Number.NEGATIVE_INFINITY, max = Number.POSITIVE_INFINITY, integer = false },
): string | null {
  const range =
    Number.isFinite(min) && Number.isFinite(max)
      ? ` in [${fmt(min)}, ${fmt(max)}]`
      : Number.isFinite(min)
        ? ` ≥ ${fmt(min)}`
        : Number.isFinite(max)
          ? ` ≤ ${fmt(max)}`
          : "";
  const what = integer ? "a whole number" : "a number";
  if (!Number.isFinite(v) || v < min || v > max || (integer && !Number.isInteger(v)))
    return `${label}: must be ${what}${range}.`;
  return null;
}

/**
 * A labelled number input that keeps what is being typed (a field can be cleared and retyped
 * without snapping back), hands on only acceptable numbers, and says why it refuses the others.
 * A new value from elsewhere (a preset, a link) replaces the text.
 */
export function NumberField({
  label,
  unit,
  help,
  value,
  min,
  max,
  integer,
  disabled,
  className,
  testId,
  onChange,
}: NumberFieldProps) {
  const [draft, setDraft] = useState(String(value));
  const [problems, setProblems] = useState<readonly string[] | null>(null);
  useEffect(() => {
    setDraft((d) => (d.trim() !== "" && Number(d) === value ? d : String(value)));
    setProblems(null);
  }, [value]);
  const bounds = {
    ...(min !== undefined && { min }),
    ...(max !== undefined && { max }),
    ...(integer !== undefined && { integer }),
  };
  const edit = (text: string) => {
    setDraft(text);
    const v = text.trim() === "" ? Number.NaN : Number(text);
    const out = boundsProblem(label, v, bounds);
    if (out) {
      setProblems([out]);
      return;
    }
    const refused = onChange(v);
    setProblems(Array.isArray(refused) && refused.length > 0 ? (refused as string[]) : null);
  };
  const error = problems?.length ? problems.join(" ") : null;
  return (
    <Field label={label} unit={unit} help={help} className={className} error={error} control={testId}>
      {(id, errorId) => (
        <input
          id={id}
          type="number"
          inputMode="decimal"
          value={draft}
          min={min}
          max={max !== undefined && Number.isFinite(max) ? max : undefined}
          step={integer ? 1 : "any"}
          disabled={disabled}
          aria-invalid={error ? true : undefined}
          aria-describedby={errorId}
          data-testid={testId}
          onChange={(e) => edit(e.target.value)}
        />
      )}
    </Field>
  );
}
