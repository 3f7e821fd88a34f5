/** "Copy link": the address of exactly what is on screen. Falls back to showing the link. */
import { useState } from "react";
import { hashFor, useAppStore } from "../../state/store.ts";

export function ShareBar() {
  const scenario = useAppStore((s) => s.scenario);
  const tab = useAppStore((s) => s.tab);
  const [status, setStatus] = useState<"idle" | "copied" | "shown">("idle");
  const [link, setLink] = useState("");
  const copy = async () => {
    // Built at click time: other views (the timeline's window) keep their own keys in the hash.
    const link = `${location.origin}${location.pathname}${hashFor({ scenario, tab }, location.hash)}`;
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
    <div className="share-bar">
      <button type="button" className="primary" onClick={copy} data-testid="copy-link">
        Copy link
      </button>
      {status === "copied" ? (
        <span className="muted" role="status">
          Link copied: it opens this exact scenario, seed included.
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
    </div>
  );
}

export function LinkErrorBanner() {
  const linkError = useAppStore((s) => s.linkError);
  const dismiss = useAppStore((s) => s.dismissLinkError);
  if (!linkError) return null;
  return (
    <div className="banner" role="alert" data-testid="link-error">
      <div>
        <strong>This link could not be opened.</strong> {linkError} Showing the default scenario instead.
      </div>
      <button type="button" onClick={dismiss} aria-label="Dismiss the link message">
        Dismiss
      </button>
    </div>
  );
}
