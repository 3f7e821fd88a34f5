/**
 * "Copy link" on every view: the address of exactly what is on screen, built at click time from
 * every address part (address.ts). Falls back to showing the link where the clipboard is closed.
 * A view says what its link opens (`opens`) and may add a note beside the button (`children`).
 */
import { type ReactNode, useState } from "react";
import { useStore } from "zustand";
import { addressStore, composeAddress } from "../../state/address.ts";
import { ClassroomLink } from "./ClassroomLink.tsx";

export function ShareBar({ opens, children }: { opens: string; children?: ReactNode }) {
  const [status, setStatus] = useState<"idle" | "copied" | "shown">("idle");
  const [link, setLink] = useState("");
  const copy = async () => {
    const link = `${location.origin}${location.pathname}${composeAddress()}`;
    setLink(link);
    try {
      await navigator.clipboard.writeText(link);
      setStatus("copied");
    } catch {
      // No clipboard permission (an embedded or headless page): show the link to copy by hand.
      setStatus("shown");
    }
  };
  return (
    <div className="share-bar" data-control="share">
      <button type="button" className="primary" onClick={copy} data-testid="copy-link">
        Copy link
      </button>
      {status === "copied" ? (
        <span className="muted" role="status">
          Link copied: it opens {opens}.
        </span>
      ) : null}
      {status === "shown" ? (
        <input
          className="mono share-link"
          readOnly
          value={link}
          aria-label="Share link"
          onFocus={(e) => e.target.select()}
        />
      ) : null}
      {children}
      <ClassroomLink />
    </div>
  );
}

/** What was wrong with the link the page was opened (or navigated) with; shown on every view. */
export function LinkErrorBanner() {
  const linkError = useStore(addressStore, (s) => s.linkError);
  const linkNote = useStore(addressStore, (s) => s.linkNote);
  const dismiss = useStore(addressStore, (s) => s.dismissLinkError);
  if (!linkError && !linkNote) return null;
  return (
    <div className="banner" role="alert" data-testid="link-error">
      <div>
        {/* Each part of a link is read on its own (address.ts): a part it could not use keeps what
            was on screen (the defaults, for a link opened fresh), the rest opens as the link says.
            So the banner says that, not that the whole link failed. */}
        {linkError ? (
          <p data-testid="link-refused">
            <strong>Part of this link could not be used.</strong> {linkError} What it could not use keeps what
            was on screen (the defaults, for a link opened fresh); the rest is as the link says.
          </p>
        ) : null}
        {linkNote ? (
          <p data-testid="link-note">
            <strong>Part of this link was adjusted.</strong> {linkNote}
          </p>
        ) : null}
      </div>
      <button type="button" onClick={dismiss} aria-label="Dismiss the link message">
        Dismiss
      </button>
    </div>
  );
}
