/** Light / dark theme switch for the header; the choice is remembered on this device. */
import { useEffect } from "react";
import { explorerStore, useExplorerStore } from "../state/explorerStore.ts";

const KEY = "ft-hsdp-theme";

export function ThemeToggle() {
  const theme = useExplorerStore((s) => s.theme);
  useEffect(() => {
    const saved = localStorage.getItem(KEY);
    explorerStore
      .getState()
      .setTheme(saved === "dark" || saved === "light" ? saved : explorerStore.getState().theme);
  }, []);
  const next = theme === "dark" ? "light" : "dark";
  return (
    // The label says what a click does (the theme it switches to), never the theme already on.
    <button
      type="button"
      className="theme-toggle"
      data-theme-now={theme}
      onClick={() => {
        localStorage.setItem(KEY, next);
        explorerStore.getState().setTheme(next);
      }}
    >
      {next === "dark" ? "☾ Dark theme" : "☀ Light theme"}
    </button>
  );
}
