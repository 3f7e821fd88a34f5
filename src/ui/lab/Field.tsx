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
