/** Pieces every chapter uses: the prose column, the figure frame, the sources under it. */
import type { ReactNode } from "react";
import type { Loaded } from "./usePromise.ts";

/**
 * A chapter's prose. Presenter mode puts the figure first; a `lead` paragraph (an instruction the
 * figure needs, "Before you look, guess") stays above it there too.
 */
export function Prose({ lead = false, children }: { lead?: boolean; children: ReactNode }) {
  return <div className={lead ? "story-prose story-lead" : "story-prose"}>{children}</div>;
}

/**
 * One part of a chapter that presenter mode shows a screen at a time (usePresenterParts): its
 * prose and figure; `shown` false hides it while another part is on screen.
 */
export function Part({ id, shown, children }: { id: string; shown: boolean; children: ReactNode }) {
  return (
    <section className="story-part" data-part={id} hidden={!shown}>
      {children}
    </section>
  );
}

export function Figure({
  label,
  volatile = false,
  children,
}: {
  label: string;
  /** Its text moves with the wall clock (an animation, GPU timings): links reproduce it, not its every frame. */
  volatile?: boolean;
  children: ReactNode;
}) {
  return (
    <figure className="story-figure" aria-label={label} data-volatile={volatile || undefined}>
      {children}
    </figure>
  );
}

export function Sources({ items }: { items: readonly string[] }) {
  return (
    <div className="story-sources muted">
      <strong>Sources:</strong>
      <ul>
        {items.map((s) => (
          <li key={s}>{s}</li>
        ))}
      </ul>
    </div>
  );
}

/** The figure once its numbers are in; "computing…" or the worker's error until then. */
export function WhenLoaded<T>({ loaded, children }: { loaded: Loaded<T>; children: (v: T) => ReactNode }) {
  if (loaded.status === "loading")
    return (
      <p className="muted" aria-live="polite">
        Computing…
      </p>
    );
  if (loaded.status === "error")
    return (
      <p className="error-text" role="alert">
        The simulation failed: {loaded.error}
      </p>
    );
  return <>{children(loaded.value)}</>;
}

/** Sources quoted by several chapters, each with where it comes from. */
export const SRC = {
  ftHsdp:
    'Salpekar, Varma, Yu et al. (Meta), "Training LLMs with Fault Tolerant HSDP on 100,000 GPUs", arXiv 2602.00277: stall per failure 10 → 3 min, effective training time 44 % → 80 %.',
  ftHsdpReported:
    "Reported in summaries of the FT-HSDP paper (not its text): about 98K GPUs in 10–20 replicas, a failure about every 18 min.",
  kokolis: "Kokolis et al., arXiv 2410.21680: job MTTF = 1/(nodes · r_f); restart overhead 5–20 min.",
  ddp: "Li et al., VLDB 2020 (PyTorch DDP): bucket_cap_mb 25, first bucket 1 MiB; overlap sped ResNet-50 up 38.0 % on NCCL.",
  c4: "C4 (Alibaba), arXiv 2406.04594: a faulty component isolated within tens of seconds.",
  watchdog: "PyTorch's NCCL watchdog: a hung collective is declared dead after 600 s by default.",
  torchft: "torchft: a recovering replica contributes a zero gradient while it heals from a peer.",
} as const;
