import type { ComponentPropsWithoutRef } from "react";
import { ErrorBoundary } from "./ErrorBoundary.tsx";

type SectionProps = ComponentPropsWithoutRef<"section"> & {
  /** The panel as a person calls it, named if it fails ("The timeline"). */
  what: string;
  /** Clears a failure when it changes (a new run, a new model). */
  resetKey?: unknown;
  "data-control"?: string;
};

/**
 * A view's panel: a <section> (class "panel" unless given) whose content fails on its own: a
 * panel that throws says so in place, and the rest of the view goes on working.
 */
export function Panel({ what, resetKey, className = "panel", children, ...rest }: SectionProps) {
  return (
    <section className={className} {...rest}>
      <ErrorBoundary what={what} level="panel" resetKey={resetKey}>
        {children}
      </ErrorBoundary>
    </section>
  );
}
