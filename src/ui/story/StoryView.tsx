/**
 * The story: a guided path through the explorer, one chapter on screen, each with a live figure
 * computed by the real models. ←/→ turn the page; every chapter has its own link; presenter mode
 * (P) fills the screen with large type and walks the chapters' own steps too.
 */

import { useEffect } from "react";
import { useStore } from "zustand";
import { readHash, writeHash } from "../../link/hashParams.ts";
import { addressStore, composeAddress } from "../../state/address.ts";
import { appStore, useAppStore } from "../../state/store.ts";
import { CHAPTER_IDS, type ChapterId, stepChapter } from "../../state/storyChapters.ts";
import { ErrorBoundary } from "../boundary/ErrorBoundary.tsx";
import { ShareBar } from "../share/ShareBar.tsx";
import { CHAPTERS } from "./chapters.tsx";
import {
  followFullscreen,
  presenterStore,
  startPresenting,
  stepInside,
  stopPresenting,
  usePresenter,
} from "./presenter.ts";
import "./story.css";

/** Keys typed into a form control belong to the control, not to the page. */
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === "TEXTAREA" || tag === "SELECT") return true;
  return (
    tag === "INPUT" &&
    (target as HTMLInputElement).type !== "checkbox" &&
    (target as HTMLInputElement).type !== "button"
  );
}

function go(delta: number): void {
  const { chapter, setChapter } = appStore.getState();
  setChapter(stepChapter(chapter, delta));
}

function onKey(e: KeyboardEvent): void {
  if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || typing(e.target)) return;
  const { presenting } = presenterStore.getState();
  if (e.key === "ArrowRight" || e.key === "ArrowLeft" || (presenting && e.key === " ")) {
    const delta = e.key === "ArrowLeft" ? -1 : 1;
    e.preventDefault();
    if (presenting && stepInside(delta)) return;
    go(delta);
  } else if (e.key === "p" || e.key === "P") {
    e.preventDefault();
    if (presenting) stopPresenting();
    else void startPresenting();
  } else if (e.key === "Escape" && presenting) {
    stopPresenting();
  }
}

/** The address of chapter `id`: what is in the address bar now, on that chapter. */
export function chapterHref(id: ChapterId): string {
  const params = readHash(composeAddress());
  params.set("v", "story");
  params.set("ch", id);
  return `${location.pathname}${location.search}${writeHash(params)}`;
}

function StepCounter({ n }: { n: number }) {
  const steps = usePresenter((s) => s.steps);
  return (
    <span className="story-progress" data-testid="story-progress" aria-live="polite">
      chapter {n} of {CHAPTER_IDS.length}
      {steps ? (
        <span data-testid="story-step">
          {" "}
          · step {steps.index + 1} of {steps.count}
        </span>
      ) : null}
    </span>
  );
}

export function StoryView() {
  const chapter = useAppStore((s) => s.chapter);
  const setChapter = useAppStore((s) => s.setChapter);
  const presenting = usePresenter((s) => s.presenting);
  const index = CHAPTER_IDS.indexOf(chapter);
  const def = CHAPTERS[chapter];
  // The chapter links are the address now (chapter 5's bucket size, bk=, included): render again
  // whenever the address changes, not only when the chapter does.
  useStore(addressStore, (s) => s.hash);

  useEffect(() => {
    window.addEventListener("keydown", onKey);
    const off = followFullscreen();
    return () => {
      window.removeEventListener("keydown", onKey);
      off();
      stopPresenting();
    };
  }, []);
  useEffect(() => {
    document.documentElement.classList.toggle("presenting", presenting);
  }, [presenting]);
  // A new chapter starts at its top.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every chapter change by design
  useEffect(() => {
    window.scrollTo({ top: 0 });
  }, [chapter]);

  return (
    <div className={presenting ? "story presenting" : "story"}>
      <nav className="story-toc" aria-label="Chapters">
        <ol>
          {CHAPTER_IDS.map((id, i) => (
            <li key={id}>
              <a
                href={chapterHref(id)}
                aria-current={id === chapter ? "page" : undefined}
                onClick={(e) => {
                  e.preventDefault();
                  setChapter(id);
                }}
              >
                <span className="story-toc-n">{i + 1}</span> {CHAPTERS[id].title}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      <div className="story-main">
        <div className="story-bar">
          <StepCounter n={index + 1} />
          <div className="story-bar-buttons">
            <button type="button" onClick={() => go(-1)} disabled={index === 0} aria-keyshortcuts="ArrowLeft">
              ← Previous
            </button>
            <button
              type="button"
              onClick={() => go(1)}
              disabled={index === CHAPTER_IDS.length - 1}
              aria-keyshortcuts="ArrowRight"
            >
              Next →
            </button>
            <button
              type="button"
              className={presenting ? "primary" : undefined}
              aria-pressed={presenting}
              aria-keyshortcuts="P"
              data-testid="presenter-toggle"
              onClick={() => (presenting ? stopPresenting() : void startPresenting())}
            >
              {presenting ? "Leave presenter mode" : "Present (P)"}
            </button>
          </div>
        </div>
        <article
          key={chapter}
          className="story-chapter"
          data-testid="story-chapter"
          data-chapter={chapter}
          aria-labelledby="story-chapter-title"
        >
          <h2 id="story-chapter-title">
            <span className="muted">{index + 1}.</span> {def.title}
          </h2>
          <ErrorBoundary what={`Chapter ${index + 1}'s figure`} level="panel" resetKey={chapter}>
            <def.Body />
          </ErrorBoundary>
        </article>
        <p className="story-hint muted">
          ← → turn the page · P presents · every chapter has its own link:{" "}
          <a href={chapterHref(chapter)} data-testid="chapter-link">
            link to this chapter
          </a>
        </p>
        <div className="story-hint">
          <ShareBar opens="this chapter as it is on screen" />
        </div>
      </div>
    </div>
  );
}
