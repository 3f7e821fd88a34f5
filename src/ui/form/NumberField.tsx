import { useEffect, useRef, useState } from "react";
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

/**
 * A typed value is handed on after this pause in typing, or at once on Enter or on leaving the
 * field: never a prefix the person is still typing (the "1" of "1e308" was applied, ran, and
 * became a history entry before the whole number was refused).
 */
export const COMMIT_PAUSE_MS = 600;

// One formatter, made at first use: toLocaleString with options makes one per call (every field, every render).
let numberFormat: Intl.NumberFormat | undefined;
function fmt(n: number): string {
  if (!numberFormat) numberFormat = new Intl.NumberFormat("en-US", { maximumFractionDigits: 6 });
  return numberFormat.format(n);
}

/** Significant digits a knob shows: a value computed elsewhere (a sweep's point: 1440 / (hosts × MTBF)) carries 17. */
export const SHOWN_DIGITS = 6;

/** How a value reads in the field: whole numbers as they are, others to SHOWN_DIGITS significant digits. */
export function shownValue(v: number): string {
  return Number.isInteger(v) || !Number.isFinite(v) ? String(v) : String(Number(v.toPrecision(SHOWN_DIGITS)));
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
  const [draft, setDraft] = useState(shownValue(value));
  const [problems, setProblems] = useState<readonly string[] | null>(null);
  /** Text typed and not yet handed on, and the pause timer that will hand it on. */
  const typed = useRef<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    // A new value from elsewhere (a preset, a link) replaces what was being typed.
    setDraft((d) => (d.trim() !== "" && Number(d) === value ? d : shownValue(value)));
    setProblems(null);
  }, [value]);
  useEffect(() => () => clearTimeout(timer.current), []);
  const bounds = {
    ...(min !== undefined && { min }),
    ...(max !== undefined && { max }),
    ...(integer !== undefined && { integer }),
  };
  // The pause timer commits with what the field is at its last render, not at the keystroke.
  const latest = useRef({ label, bounds, onChange });
  latest.current = { label, bounds, onChange };
  const commit = () => {
    clearTimeout(timer.current);
    const text = typed.current;
    if (text === null) return;
    typed.current = null;
    const { label, bounds, onChange } = latest.current;
    const v = text.trim() === "" ? Number.NaN : Number(text);
    const out = boundsProblem(label, v, bounds);
    if (out) {
      setProblems([out]);
      return;
    }
    const refused = onChange(v);
    setProblems(Array.isArray(refused) && refused.length > 0 ? (refused as string[]) : null);
  };
  const edit = (text: string) => {
    setDraft(text);
    // The message was about the text before this edit; it comes back at the commit if it still holds.
    // (Left up while typing, it went away at the commit: the page moved under the pointer on its way to a button.)
    setProblems(null);
    typed.current = text;
    clearTimeout(timer.current);
    timer.current = setTimeout(commit, COMMIT_PAUSE_MS);
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
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key === "Enter") commit();
          }}
        />
      )}
    </Field>
  );
}
