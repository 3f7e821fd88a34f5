/** The definition of the term last opened: a non-modal dialog that takes focus and gives it back. */
import { useEffect, useRef } from "react";
import { GLOSSARY } from "./glossary.ts";
import { openTermStore, useOpenTerm } from "./openTerm.ts";
import "./glossary.css";

function close(): void {
  const { opener } = openTermStore.getState();
  openTermStore.setState({ id: null, opener: null });
  opener?.focus();
}

export function GlossaryPanel() {
  const { id } = useOpenTerm();
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    if (id) ref.current?.focus();
  }, [id]);
  if (!id) return null;
  const entry = GLOSSARY[id];
  return (
    <section
      ref={ref}
      className="glossary-panel"
      role="dialog"
      aria-labelledby="glossary-term"
      data-testid="glossary-definition"
      tabIndex={-1}
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.stopPropagation();
          close();
        }
      }}
    >
      <div className="glossary-head">
        <h2 id="glossary-term">{entry.term}</h2>
        <button type="button" onClick={close} aria-label="Close the definition">
          Close
        </button>
      </div>
      <p>{entry.definition}</p>
      {"source" in entry ? <p className="muted glossary-source">Source: {entry.source}</p> : null}
    </section>
  );
}
