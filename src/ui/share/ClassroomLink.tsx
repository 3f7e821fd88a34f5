/**
 * The teacher's side of classroom links: tick the controls a class should not see, and the address
 * (so Copy link) carries them as `hide=`. The list is read from the page itself (every element
 * with a `data-control` id), so it covers whatever controls the open view has.
 */
import { useState } from "react";
import { appStore, useAppStore } from "../../state/store.ts";

interface Control {
  id: string;
  label: string;
}

/** The open view's controls, in page order, each once, named by its label or legend. */
function controlsOnPage(): Control[] {
  const seen = new Map<string, Control>();
  for (const el of document.querySelectorAll<HTMLElement>("main [data-control]")) {
    const id = el.dataset.control ?? "";
    if (!id || seen.has(id)) continue;
    const named = el.querySelector(":scope > label, :scope > legend, :scope > h2, :scope > .panel-head h2");
    const label = (named?.textContent ?? el.getAttribute("aria-label") ?? "").trim();
    seen.set(id, { id, label });
  }
  return [...seen.values()];
}

/** A control without a label, in words: "story.capMb" → "story: cap mb" (never the raw id alone). */
function wordsOf(id: string): string {
  return id
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/\./g, ": ")
    .toLowerCase();
}

export function ClassroomLink() {
  const hidden = useAppStore((s) => s.hidden);
  const [controls, setControls] = useState<Control[]>([]);
  const toggle = (id: string, hide: boolean) => {
    const now = appStore.getState().hidden;
    appStore.setState({ hidden: hide ? [...now, id] : now.filter((h) => h !== id) });
  };
  return (
    <details
      className="classroom-link"
      onToggle={(e) => e.currentTarget.open && setControls(controlsOnPage())}
    >
      <summary>Classroom link: hide controls</summary>
      <p className="muted">
        Ticked controls disappear here and in this page's link, so a class sees only the knob under
        discussion.
      </p>
      <ul>
        {controls.map((c) => (
          <li key={c.id}>
            <label>
              <input
                type="checkbox"
                checked={hidden.includes(c.id)}
                onChange={(e) => toggle(c.id, e.target.checked)}
              />{" "}
              {c.label || wordsOf(c.id)}
            </label>
          </li>
        ))}
      </ul>
    </details>
  );
}
