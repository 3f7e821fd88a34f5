import { StrictMode } from "react";
import "./ui/styles.css";

/**
 * The page starts in steps, each a task of its own, so that no first-load task is long:
 *  1. this entry (React and the styles);
 *  2. the strategies' registry (the plug-in list, src/sim/policies/pluginList.ts), so that a link's
 *     `policies` is checked against it; then the scenario's store with its schema and link codec
 *     (zod, fflate);
 *  3. React's renderer and the app's shell, which import the other stores; startState() then
 *     registers the first load's address parts (src/state/startState.ts), and the address is read;
 *  4. the first view, on demand (App.tsx);
 *  5. the simulation, once that view is on screen (started earlier, its workers loaded and computed
 *     while the page laid the view out).
 * Evaluating 1–3 in one task was the first load's longest task: 150–270 ms on two cores for a
 * link opened in a running browser, against 75–165 ms for the longest now (bench:cluster).
 */
async function boot(): Promise<void> {
  const root = document.getElementById("root");
  if (!root) throw new Error("index.html has no #root element");
  await import("./sim/policies/index.ts");
  await import("./state/store.ts");
  const [{ createRoot }, { startAddress }, { startState }, { startClusterRunner }, { App }] =
    await Promise.all([
      import("react-dom/client"),
      import("./state/address.ts"),
      import("./state/startState.ts"),
      import("./state/clusterRunner.ts"),
      import("./ui/App.tsx"),
    ]);
  // The state is wired in one place (startState.ts), then the address is read into it.
  startState();
  startAddress();
  let started = false;
  const startOnce = (): void => {
    if (started) return;
    started = true;
    startClusterRunner();
  };
  // A view that never draws (its code failed to load) does not keep the simulation from starting.
  setTimeout(startOnce, 3000);
  createRoot(root).render(
    <StrictMode>
      <App onViewDrawn={startOnce} />
    </StrictMode>,
  );
}

void boot().catch((e: unknown) => {
  const root = document.getElementById("root");
  if (root)
    root.textContent = `The page could not load its code (${e instanceof Error ? e.message : String(e)}). Reload to try again.`;
});
