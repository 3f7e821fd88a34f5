import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { addressNeedsChecks, addressStore, isApplyingAddress } from "../state/address.ts";
import { hideStyle, unknownControls } from "../state/hideFlags.ts";
import { appStore, TABS, type Tab, useAppStore } from "../state/store.ts";
import { useWorkerHealth, workerHealth } from "../state/workerHealth.ts";
import { ErrorBoundary } from "./boundary/ErrorBoundary.tsx";
import { useOpenTerm } from "./glossary/openTerm.ts";
import { LinkErrorBanner } from "./share/ShareBar.tsx";
import { ThemeToggle } from "./ThemeToggle.tsx";

// Each view is its own chunk: the first paint loads only the view the address names.
const ClusterView = lazy(() => import("./cluster/ClusterView.tsx").then((m) => ({ default: m.ClusterView })));
const StepView = lazy(() => import("./step/StepView.tsx").then((m) => ({ default: m.StepView })));
const LabView = lazy(() => import("./lab/LabView.tsx").then((m) => ({ default: m.LabView })));
const TrainView = lazy(() => import("./train/TrainView.tsx").then((m) => ({ default: m.TrainView })));
const PapersView = lazy(() => import("./papers/PapersView.tsx").then((m) => ({ default: m.PapersView })));
// The definition panel loads when a term is first opened: its words stay out of the first load.
const GlossaryPanel = lazy(() =>
  import("./glossary/GlossaryPanel.tsx").then((m) => ({ default: m.GlossaryPanel })),
);
const StoryView = lazy(() => import("./story/StoryView.tsx").then((m) => ({ default: m.StoryView })));

const TAB_LABELS: Record<Tab, string> = {
  story: "Story",
  // Follows the scenario's strategies (strategyWords.ts): this is the label before a scenario is read.
  cluster: "Cluster",
  step: "One step: buckets & overlap",
  lab: "WebGPU all-reduce lab",
  train: "Live training",
  papers: "Papers",
};

/** A view as a person calls it when it fails ("The Cluster view stopped working"). */
const VIEW_NAMES: Record<Tab, string> = {
  story: "The Story",
  cluster: "The Cluster view",
  step: "The One step view",
  lab: "The WebGPU lab",
  train: "Live training",
  papers: "The Papers view",
};

/**
 * A key of a view not loaded yet is checked when the link is read (address.ts), by codecs that
 * load only for a link holding such a key: a plain link's first load does not fetch them.
 */
addressStore.subscribe(() => {
  if (addressNeedsChecks()) void import("../state/addressChecks.ts");
});

/**
 * A classroom link's hidden controls (`hide=`), hidden wherever they appear. A constructed style
 * sheet, not a <style> element: the Content-Security-Policy allows no inline styles.
 */
/**
 * A link's `hide=` ids that no control of the page carries (`knobs.faalures`) are named in the
 * link banner, as a bad `ch=` is: silently ignored, they left shown what the teacher meant to
 * hide. Only ids that came from a link are checked (a teacher's own ticks come from the page),
 * and only once the view has had time to load and draw its controls.
 */
const HIDE_CHECK_EVERY_MS = 500;
const HIDE_CHECK_FOR_MS = 5000;
let hideCheck: ReturnType<typeof setInterval> | undefined;
appStore.subscribe((s, prev) => {
  if (s.hidden === prev.hidden) return;
  clearInterval(hideCheck);
  if (!isApplyingAddress() || s.hidden.length === 0) return;
  const ids = s.hidden;
  const started = performance.now();
  hideCheck = setInterval(() => {
    const unknown = unknownControls(ids, document);
    if (unknown.length > 0 && performance.now() - started < HIDE_CHECK_FOR_MS) return;
    clearInterval(hideCheck);
    if (unknown.length === 0 || appStore.getState().hidden !== ids) return;
    const named = unknown.map((id) => `"${id}"`).join(", ");
    const problem = `The link's hide= names ${named}, which ${unknown.length === 1 ? "is" : "are"} not a control on this page; the other controls it names are hidden.`;
    const before = addressStore.getState().linkError;
    addressStore.setState({ linkError: before ? `${before} ${problem}` : problem });
  }, HIDE_CHECK_EVERY_MS);
});

function useHiddenControls(): void {
  const hidden = useAppStore((s) => s.hidden);
  useEffect(() => {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(hideStyle(hidden));
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    return () => {
      document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== sheet);
    };
  }, [hidden]);
}

/**
 * Tells `onDrawn` once, after the frame that first shows a view: the page draws itself before the
 * simulation starts to compete with it for the cores (main.tsx).
 */
function ViewDrawn({ onDrawn }: { onDrawn?: () => void }) {
  useEffect(() => {
    if (!onDrawn) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(onDrawn, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [onDrawn]);
  return null;
}

/**
 * The Cluster tab names the strategies picked, in the registry's words. The registry carries
 * every policy's code, so it loads after the first frame rather than with the page's shell
 * (robust.spec.ts's first-load budget); until then the tab reads "Cluster".
 */
function useStrategyWords(): typeof import("./strategyWords.ts") | null {
  const [words, setWords] = useState<typeof import("./strategyWords.ts") | null>(null);
  useEffect(() => {
    let live = true;
    void import("./strategyWords.ts").then((m) => {
      if (live) setWords(() => m);
    });
    return () => {
      live = false;
    };
  }, []);
  return words;
}

export function App({ onViewDrawn }: { onViewDrawn?: () => void } = {}) {
  const tab = useAppStore((s) => s.tab);
  const policies = useAppStore((s) => s.scenario.policies);
  const tabWords = useStrategyWords();
  const setTab = useAppStore((s) => s.setTab);
  useHiddenControls();
  const tabsRef = useRef<HTMLDivElement>(null);
  // On a phone the tabs scroll sideways in their row: keep the open view's tab in sight.
  useEffect(() => {
    const list = tabsRef.current;
    const active = list?.children[TABS.indexOf(tab)];
    if (!list || !(active instanceof HTMLElement) || list.scrollWidth <= list.clientWidth) return;
    list.scrollLeft = active.offsetLeft - (list.clientWidth - active.offsetWidth) / 2;
  }, [tab]);
  return (
    <div className="app">
      <header className="app-header">
        <h1>FT-HSDP Explorer</h1>
        <div aria-label="Views" className="tabs" role="tablist" ref={tabsRef}>
          {TABS.map((t) => (
            <button
              key={t}
              type="button"
              role="tab"
              aria-selected={tab === t}
              className={tab === t ? "tab active" : "tab"}
              onClick={() => setTab(t)}
            >
              {t === "cluster" ? (tabWords?.clusterTabLabel(policies) ?? "Cluster") : TAB_LABELS[t]}
            </button>
          ))}
        </div>
        <ThemeToggle />
      </header>
      <WorkerNotice />
      <main>
        <LinkErrorBanner />
        <ErrorBoundary what={VIEW_NAMES[tab]} level="view" resetKey={tab}>
          <Suspense fallback={<p className="muted">Loading the view…</p>}>
            {tab === "story" && <StoryView />}
            {tab === "cluster" && <ClusterView />}
            {tab === "step" && <StepView />}
            {tab === "lab" && <LabView />}
            {tab === "train" && <TrainView />}
            {tab === "papers" && <PapersView />}
            <ViewDrawn onDrawn={onViewDrawn} />
          </Suspense>
        </ErrorBoundary>
      </main>
      <Definition />
    </div>
  );
}

/** The glossary's definition, once a term is open (nothing, and nothing loaded, before). */
function Definition() {
  const open = useOpenTerm().id !== null;
  return open ? (
    <Suspense fallback={null}>
      <GlossaryPanel />
    </Suspense>
  ) : null;
}

/** Says so when a worker died and was replaced, so a wait or a rerun is never a mystery. */
function WorkerNotice() {
  const notice = useWorkerHealth((s) => s.notice);
  if (!notice) return null;
  return (
    <div className="worker-notice" role="status" data-testid="worker-notice">
      {notice}{" "}
      <button type="button" className="link-button" onClick={() => workerHealth.getState().dismiss()}>
        Dismiss
      </button>
    </div>
  );
}
