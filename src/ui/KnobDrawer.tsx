/**
 * A view's knobs: a sticky side panel on wide screens, a collapsible drawer above the results on
 * narrow ones (styles.css, `.knob-drawer`), so the knobs never sit on top of what they change.
 * The drawer starts closed on a phone; its toggle says what is set while it is closed.
 */
import { type ReactNode, useId, useState } from "react";

interface Props {
  /** What the drawer holds, e.g. "Scenario knobs". */
  label: string;
  /** One line shown on the closed toggle: the settings at a glance. */
  summary?: string;
  children: ReactNode;
}

export function KnobDrawer({ label, summary, children }: Props) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <div className="knob-drawer" data-open={open}>
      <button
        type="button"
        className="knob-drawer-toggle"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
      >
        <span className="knob-drawer-label">
          {open ? "Hide" : "Show"} {label.toLowerCase()}
        </span>
        {summary && !open ? <span className="knob-drawer-summary muted">{summary}</span> : null}
        <span aria-hidden="true" className="knob-drawer-chevron">
          {open ? "▴" : "▾"}
        </span>
      </button>
      <div id={id} className="knob-drawer-body">
        {children}
      </div>
    </div>
  );
}
