/**
 * Level of detail for the step's Gantt. A pasted model may have hundreds of thousands of
 * gradients (and, with a small cap, as many buckets); the Gantt needs no more marks than it has
 * pixels. Neighbouring spans are merged into at most `maxMarks` per row, each merged mark taking
 * the bucket that covers most of it, so a frame costs what can be seen, not what was pasted.
 */
import type { BackwardSpan, CommSpan, Span, StepTimeline } from "./stepTimeline.ts";

/** About one mark per pixel of the widest Gantt: far fewer than a paste can give. */
export const MAX_GANTT_MARKS = 1000;

interface Marked {
  start: number;
  end: number;
  bucket: number;
}

/** Merge sorted spans into at most ~maxMarks groups by time slice; `make` builds a group's mark. */
function merge<T extends Marked>(
  spans: readonly T[],
  maxMarks: number,
  make: (group: T[], bucket: number) => T,
): T[] {
  if (spans.length <= maxMarks) return [...spans];
  const t0 = spans[0]?.start ?? 0;
  const t1 = spans.at(-1)?.end ?? t0;
  const slice = (t1 - t0) / maxMarks || 1;
  const out: T[] = [];
  let group: T[] = [];
  let sliceOf = -1;
  const flush = () => {
    if (group.length === 0) return;
    // The bucket that covers the most time in this group names the mark.
    const cover = new Map<number, number>();
    for (const s of group) cover.set(s.bucket, (cover.get(s.bucket) ?? 0) + (s.end - s.start));
    let best = group[0]?.bucket ?? 0;
    for (const [b, c] of cover) if (c > (cover.get(best) ?? 0)) best = b;
    out.push(group.length === 1 ? (group[0] as T) : make(group, best));
    group = [];
  };
  for (const s of spans) {
    const k = Math.floor((s.start - t0) / slice);
    if (k !== sliceOf) {
      flush();
      sliceOf = k;
    }
    group.push(s);
  }
  flush();
  return out;
}

/**
 * A merged mark's wait for a slow rank: as long as its reductions' waits together, ending where
 * the last of them ends (they lie within a slice or two, narrower than a pixel or so apart).
 */
function groupWait(group: readonly CommSpan[]): Span | undefined {
  let total = 0;
  let end = Number.NEGATIVE_INFINITY;
  for (const c of group) {
    if (!c.wait) continue;
    total += c.wait.end - c.wait.start;
    end = Math.max(end, c.wait.end);
  }
  return total > 0 ? { start: end - total, end } : undefined;
}

/** The timeline with its backward and communication rows reduced to at most ~maxMarks marks each. */
export function reduceTimeline(t: StepTimeline, maxMarks = MAX_GANTT_MARKS): StepTimeline {
  const backward = merge<BackwardSpan>(t.backward, maxMarks, (g, bucket) => ({
    param: (g[0] as BackwardSpan).param,
    bucket,
    start: (g[0] as BackwardSpan).start,
    end: (g.at(-1) as BackwardSpan).end,
  }));
  const comm = merge<CommSpan>(t.comm, maxMarks, (g, bucket) => {
    const first = g[0] as CommSpan;
    const last = g.at(-1) as CommSpan;
    const phase = first.phases[0];
    const { wait: _, ...rest } = first;
    const wait = groupWait(g);
    return {
      ...rest,
      bucket,
      end: last.end,
      // One phase spanning the group: its parts are narrower than a pixel.
      phases: phase ? [{ ...phase, start: first.start, end: last.end }] : [],
      ...(wait ? { wait } : {}),
    };
  });
  return { ...t, backward, comm };
}
