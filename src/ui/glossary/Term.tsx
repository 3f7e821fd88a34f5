/**
 * A term link: the first use of a glossary term in a view. A real button, so it is reached with
 * Tab and opened with Enter or Space (a definition behind hover alone would lock keyboard and
 * touch readers out). One definition panel serves the whole app.
 */
import type { ReactNode } from "react";
import { useStore } from "zustand";
import { GLOSSARY, type TermId } from "./glossary.ts";
import { openTermStore } from "./openTerm.ts";

export function Term({ id, children }: { id: TermId; children?: ReactNode }) {
  const open = useStore(openTermStore, (s) => s.id === id);
  return (
    <button
      type="button"
      className="term"
      data-term={id}
      aria-haspopup="dialog"
      aria-expanded={open}
      onClick={(e) => openTermStore.setState({ id: open ? null : id, opener: e.currentTarget })}
    >
      {children ?? GLOSSARY[id].term}
    </button>
  );
}
